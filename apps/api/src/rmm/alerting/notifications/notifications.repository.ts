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

/** Closes a channel's circuit and forgets its failures (a delivery went through); completed with its WHERE. */
const CLOSE_CIRCUIT = `UPDATE notification_channels c SET failing_since = NULL, last_failure = NULL, circuit_opened_at = NULL, circuit_probe_at = NULL`;

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
   * Claims up to `limit` due deliveries for this instance, fairly across channels (docs/notifications.md, "Fair
   * delivery"): pending, due, not leased by a live instance; at most `perChannel` of a channel in flight (leased,
   * counted in the database: every instance's), one at a time and no earlier than its probe time for a channel
   * whose circuit is open; taken round-robin by channel (each channel's oldest first, then each one's second, …), so
   * a channel with thousands due and a receiver that never answers holds its own slots only.
   *
   * Two statements in one transaction: the first locks the channels with due work (FOR NO KEY UPDATE SKIP LOCKED:
   * instances claiming together take different channels; deliveries being inserted for them, FOR KEY SHARE, do not
   * wait), so the second, with a snapshot taken after the lock, counts every lease another instance committed for
   * them. The leases themselves are as before: FOR UPDATE SKIP LOCKED on the rows, locked_until, the attempt counted
   * here (an attempt cut short by a crash counts). A probe claimed moves its channel's next probe time `probeSeconds`
   * on.
   */
  claim(limit: number, leaseSeconds: number, perChannel: number, probeSeconds: number): Promise<ClaimedDelivery[]> {
    return this.tx.run(async () => {
      const channels = await this.tx.rows<{ id: number }>(
        `SELECT c.id FROM notification_channels c
          WHERE (c.circuit_opened_at IS NULL OR c.circuit_probe_at IS NULL OR c.circuit_probe_at <= now())
            AND EXISTS (SELECT 1 FROM notification_deliveries d
                         WHERE d.channel_id = c.id AND d.status = 'pending' AND d.next_attempt_at <= now()
                           AND (d.locked_until IS NULL OR d.locked_until <= now()))
            -- (a channel seen at its limit is not locked: the next statement counts again for those that are)
            AND (SELECT count(*) FROM notification_deliveries l WHERE l.channel_id = c.id AND l.status = 'pending' AND l.locked_until > now())
                < (CASE WHEN c.circuit_opened_at IS NULL THEN $1::int ELSE 1 END)
          ORDER BY c.id FOR NO KEY UPDATE OF c SKIP LOCKED`,
        [perChannel],
      );
      if (channels.length === 0) return [];
      const rows = await this.tx.rows<ClaimedRow>(
        `WITH ch AS (
           SELECT c.id, (CASE WHEN c.circuit_opened_at IS NULL THEN $3::int ELSE 1 END)
                        - (SELECT count(*) FROM notification_deliveries l
                            WHERE l.channel_id = c.id AND l.status = 'pending' AND l.locked_until > now())::int AS free
             FROM notification_channels c WHERE c.id = ANY($4::int[])),
         ranked AS (
           SELECT x.id, x.next_attempt_at, ch.id AS channel_id,
                  row_number() OVER (PARTITION BY ch.id ORDER BY x.next_attempt_at, x.created_at) AS turn
             FROM ch CROSS JOIN LATERAL (
               SELECT d.id, d.next_attempt_at, d.created_at FROM notification_deliveries d
                WHERE d.channel_id = ch.id AND d.status = 'pending' AND d.next_attempt_at <= now()
                  AND (d.locked_until IS NULL OR d.locked_until <= now())
                ORDER BY d.next_attempt_at, d.created_at LIMIT GREATEST(ch.free, 0)) x),
         picked AS (SELECT id FROM ranked ORDER BY turn, next_attempt_at, channel_id LIMIT $1),
         due AS (
           SELECT d.id FROM notification_deliveries d
            WHERE d.id IN (SELECT id FROM picked) AND d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= now())
              FOR UPDATE OF d SKIP LOCKED),
         claimed AS (
           UPDATE notification_deliveries d SET locked_until = now() + $2 * interval '1 second', attempts = d.attempts + 1,
                  first_attempt_at = COALESCE(d.first_attempt_at, now())
             FROM due WHERE d.id = due.id
           RETURNING d.id, d.event, d.severity, d.payload, d.attempts, d.created_at, d.first_attempt_at, d.channel_id, d.next_attempt_at),
         probed AS (
           UPDATE notification_channels c SET circuit_probe_at = now() + $5 * interval '1 second'
            WHERE c.circuit_opened_at IS NOT NULL AND c.id IN (SELECT channel_id FROM claimed))
         SELECT x.*, c.type, c.url, c.recipients, c.secret, c.headers, c.enabled
           FROM claimed x JOIN notification_channels c ON c.id = x.channel_id ORDER BY x.next_attempt_at, x.created_at`,
        [limit, leaseSeconds, perChannel, channels.map((c) => c.id), probeSeconds],
      );
      return rows.map(toClaimed);
    });
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
  async finishDelivered(rows: ReadonlyArray<{ id: string; attempts: number; statusCode: number | null; channelId: number }>): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    const done = await this.tx.rows<{ id: string }>(
      `WITH u AS (SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[]) AS x(id, attempts, code)),
       changed AS (
         UPDATE notification_deliveries d SET status = 'delivered', delivered_at = now(), last_error = NULL, last_status_code = u.code, locked_until = NULL
           FROM u WHERE d.id = u.id AND d.attempts = u.attempts AND d.status = 'pending' RETURNING d.id),
       closed AS (${CLOSE_CIRCUIT} WHERE c.id = ANY($4::int[]) AND (c.failing_since IS NOT NULL OR c.circuit_opened_at IS NOT NULL))
       SELECT id FROM changed`,
      [rows.map((r) => r.id), rows.map((r) => r.attempts), rows.map((r) => r.statusCode), [...new Set(rows.map((r) => r.channelId))]],
    );
    return new Set(done.map((r) => r.id));
  }

  /**
   * A failed attempt of this channel (docs/notifications.md, "Circuit breaker"): failing_since is set by the first
   * failure after a success, last_failure is this one's reason, and the circuit opens once failing_since is
   * `circuitSeconds` old (its first probe `probeSeconds` later). Written only when something changes (a receiver
   * failing 32 attempts at once does not write its channel 32 times). When the circuit opened, if this failure
   * opened it (now() is the transaction's time: an earlier opening is older), and since when the channel fails; null
   * when nothing changed.
   */
  async channelFailed(channelId: number, reason: string, circuitSeconds: number, probeSeconds: number): Promise<{ opened: Date | null; failingSince: Date } | null> {
    const opens = `(c.circuit_opened_at IS NULL AND COALESCE(c.failing_since, now()) <= now() - $3 * interval '1 second')`;
    const rows = await this.tx.rows<{ opened: Date | null; failing_since: Date }>(
      `UPDATE notification_channels c SET failing_since = COALESCE(c.failing_since, now()), last_failure = $2,
              circuit_opened_at = CASE WHEN ${opens} THEN now() ELSE c.circuit_opened_at END,
              circuit_probe_at = CASE WHEN ${opens} THEN now() + $4 * interval '1 second' ELSE c.circuit_probe_at END
        WHERE c.id = $1 AND (c.failing_since IS NULL OR c.last_failure IS DISTINCT FROM $2 OR ${opens})
        RETURNING CASE WHEN c.circuit_opened_at = now() THEN c.circuit_opened_at END AS opened, c.failing_since`,
      [channelId, reason.slice(0, 1000), circuitSeconds, probeSeconds],
    );
    return rows[0] ? { opened: rows[0].opened ? new Date(rows[0].opened) : null, failingSince: new Date(rows[0].failing_since) } : null;
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
