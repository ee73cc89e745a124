import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { AlertSeverity, NotificationChannelEntity, NotificationDeliveryEntity } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import type { NotificationPayload } from './notification-payload';

/** A delivery claimed by this instance, with what its channel needs to send it. */
export interface ClaimedDelivery {
  id: string;
  event: string;
  severity: AlertSeverity;
  payload: NotificationPayload;
  attempts: number;
  createdAt: Date;
  firstAttemptAt: Date;
  channelId: number;
  channel: Pick<NotificationChannelEntity, 'type' | 'url' | 'recipients' | 'secret' | 'headers' | 'enabled'>;
}

/** How an attempt ends for its row. */
export type DeliveryUpdate =
  | { kind: 'delivered'; statusCode: number | null }
  | { kind: 'retry'; statusCode: number | null; error: string | null; delaySeconds: number }
  | { kind: 'failed'; statusCode: number | null; error: string | null };

/** A claimed row as the database gives it. */
interface ClaimedRow {
  id: string;
  event: string;
  severity: AlertSeverity;
  payload: NotificationPayload;
  attempts: number;
  created_at: Date;
  first_attempt_at: Date;
  channel_id: number;
  type: NotificationChannelEntity['type'];
  url: string | null;
  recipients: string[];
  secret: string | null;
  headers: Record<string, string>;
  enabled: boolean;
}

const toClaimed = (r: ClaimedRow): ClaimedDelivery => ({
  id: r.id,
  event: r.event,
  severity: r.severity,
  payload: r.payload,
  attempts: r.attempts,
  createdAt: new Date(r.created_at),
  firstAttemptAt: new Date(r.first_attempt_at),
  channelId: r.channel_id,
  channel: { type: r.type, url: r.url, recipients: r.recipients, secret: r.secret, headers: r.headers, enabled: r.enabled },
});

/**
 * A channel is visible to a client-limited caller only when it names clients, all of them the caller's (a
 * channel of every client, or of another client too, tells of agents the caller may not see).
 */
const visibleTo = (alias: string, clients: ClientScope): string => (clients === null ? 'true' : `(cardinality(${alias}.clients) > 0 AND ${alias}.clients <@ :scope::int[])`);

@Injectable()
export class NotificationsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get channels(): Repository<NotificationChannelEntity> {
    return this.tx.repo(NotificationChannelEntity);
  }

  private get deliveries(): Repository<NotificationDeliveryEntity> {
    return this.tx.repo(NotificationDeliveryEntity);
  }

  list(page: Page, clients: ClientScope): Promise<[NotificationChannelEntity[], number]> {
    return this.channels
      .createQueryBuilder('c')
      .where(visibleTo('c', clients), { scope: clients === null ? [] : [...clients] })
      .orderBy('c.id', 'ASC')
      .offset(page.offset)
      .limit(page.limit)
      .getManyAndCount();
  }

  findVisible(id: number, clients: ClientScope): Promise<NotificationChannelEntity | null> {
    return this.channels
      .createQueryBuilder('c')
      .where('c.id = :id', { id })
      .andWhere(visibleTo('c', clients), { scope: clients === null ? [] : [...clients] })
      .getOne();
  }

  /** Those of these ids that are clients. */
  async existingClients(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.tx.rows<{ id: number }>(`SELECT id FROM clients WHERE id = ANY($1::int[])`, [ids]);
    return rows.map((r) => r.id);
  }

  insert(channel: Partial<NotificationChannelEntity>): Promise<NotificationChannelEntity> {
    return this.channels.save(this.channels.create(channel));
  }

  async update(id: number, change: Partial<NotificationChannelEntity>): Promise<void> {
    await this.channels.update({ id }, change);
  }

  async delete(id: number): Promise<void> {
    await this.channels.delete({ id });
  }

  /** A channel's deliveries, newest first. */
  listDeliveries(channelId: number, page: Page): Promise<[NotificationDeliveryEntity[], number]> {
    return this.deliveries.findAndCount({ where: { channelId }, order: { createdAt: 'DESC', id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  findDelivery(id: string): Promise<NotificationDeliveryEntity | null> {
    return this.deliveries.findOneBy({ id });
  }

  /** A test notification's delivery row, claimed at once by the caller (leased, first attempt counted). */
  async insertTest(channelId: number, payload: NotificationPayload, leaseSeconds: number): Promise<ClaimedDelivery> {
    const [row] = await this.tx.rows<{ id: string }>(
      `INSERT INTO notification_deliveries (channel_id, event, severity, payload, attempts, first_attempt_at, locked_until)
       VALUES ($1, 'notification.test', 'info', $2, 1, now(), now() + $3 * interval '1 second') RETURNING id`,
      [channelId, JSON.stringify(payload), leaseSeconds],
    );
    return (await this.claimedById([row.id]))[0];
  }

  /**
   * Claims up to `limit` due deliveries for this instance: pending, due, and not leased by a live instance. FOR
   * UPDATE SKIP LOCKED makes instances claiming together take different rows; the lease (locked_until) keeps a
   * claimed row from being claimed again while it is being sent, and frees it when the instance that claimed it
   * died. The attempt is counted here (an attempt cut short by a crash counts). Oldest due first.
   */
  async claim(limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
    const rows = await this.tx.rows<ClaimedRow>(
      `WITH due AS (
         SELECT id FROM notification_deliveries
          WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until <= now())
          ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE notification_deliveries d SET locked_until = now() + $2 * interval '1 second', attempts = d.attempts + 1,
                first_attempt_at = COALESCE(d.first_attempt_at, now())
           FROM due WHERE d.id = due.id
         RETURNING d.id, d.event, d.severity, d.payload, d.attempts, d.created_at, d.first_attempt_at, d.channel_id, d.next_attempt_at)
       SELECT x.*, c.type, c.url, c.recipients, c.secret, c.headers, c.enabled
         FROM claimed x JOIN notification_channels c ON c.id = x.channel_id ORDER BY x.next_attempt_at, x.created_at`,
      [limit, leaseSeconds],
    );
    return rows.map(toClaimed);
  }

  private async claimedById(ids: string[]): Promise<ClaimedDelivery[]> {
    const rows = await this.tx.rows<ClaimedRow>(
      `SELECT d.id, d.event, d.severity, d.payload, d.attempts, d.created_at, d.first_attempt_at, d.channel_id,
              c.type, c.url, c.recipients, c.secret, c.headers, c.enabled
         FROM notification_deliveries d JOIN notification_channels c ON c.id = d.channel_id
        WHERE d.id = ANY($1::uuid[]) ORDER BY d.next_attempt_at, d.created_at`,
      [ids],
    );
    return rows.map(toClaimed);
  }

  /**
   * Records an attempt's end, only while this instance still holds the row (the attempt it claimed, still
   * pending): an instance that outlived its lease cannot overwrite what another did since. False when it did not.
   */
  async finishAttempt(id: string, attempts: number, u: DeliveryUpdate): Promise<boolean> {
    const set =
      u.kind === 'delivered'
        ? `status = 'delivered', delivered_at = now(), last_error = NULL`
        : u.kind === 'failed'
          ? `status = 'failed', last_error = $4`
          : `next_attempt_at = now() + $5 * interval '1 second', last_error = $4`;
    const params: unknown[] = [id, attempts, u.statusCode];
    if (u.kind !== 'delivered') params.push(u.error?.slice(0, 1000) ?? null);
    if (u.kind === 'retry') params.push(u.delaySeconds);
    const { rowCount } = await this.tx.exec(
      `UPDATE notification_deliveries SET ${set}, last_status_code = $3, locked_until = NULL WHERE id = $1 AND attempts = $2 AND status = 'pending'`,
      params,
    );
    return rowCount > 0;
  }

  /**
   * finishAttempt's `delivered` for many deliveries in one statement (the common outcome, batched by the worker:
   * a burst of notifications costs a statement per batch, not one per notification). The ids it recorded.
   */
  async finishDelivered(rows: ReadonlyArray<{ id: string; attempts: number; statusCode: number | null }>): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const done = await this.tx.rows<{ id: string }>(
      `WITH u AS (SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[]) AS x(id, attempts, code)),
       changed AS (
         UPDATE notification_deliveries d SET status = 'delivered', delivered_at = now(), last_error = NULL, last_status_code = u.code, locked_until = NULL
           FROM u WHERE d.id = u.id AND d.attempts = u.attempts AND d.status = 'pending' RETURNING d.id)
       SELECT id FROM changed`,
      [rows.map((r) => r.id), rows.map((r) => r.attempts), rows.map((r) => r.statusCode)],
    );
    return new Set(done.map((r) => r.id));
  }

  /**
   * Deletes up to `limit` finished deliveries (delivered or failed) created more than `days` days ago; how many.
   * Pending ones stay whatever their age (they end within RMM_NOTIFY_RETRY_FOR_SECONDS).
   */
  async prune(days: number, limit: number): Promise<number> {
    const { rowCount } = await this.tx.exec(
      `DELETE FROM notification_deliveries WHERE id IN (
         SELECT id FROM notification_deliveries WHERE status <> 'pending' AND created_at < now() - $1 * interval '1 day' LIMIT $2)`,
      [days, limit],
    );
    return rowCount;
  }

  /** A receiver answered 410: the channel stops (enabled false), with the reason; PATCH enabled: true turns it on again. */
  async disable(channelId: number, reason: string): Promise<void> {
    await this.tx.exec(`UPDATE notification_channels SET enabled = false, disabled_reason = $2, updated_at = now() WHERE id = $1`, [channelId, reason]);
  }
}
