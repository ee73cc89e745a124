import { Injectable } from '@nestjs/common';
import { NotificationChannelEntity, NotificationDeliveryEntity, NotificationType } from '@app/entities';
import { fieldInvalid, notFound } from '../../../common/errors/domain-error';
import { Clock } from '../../../common/clock';
import { RuntimeConfig } from '../../../config/runtime-config';
import type { Principal } from '../../common/principal';
import { requireStepUp } from '../../common/step-up';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { DeliveryWorker, LEASE_SECONDS } from './delivery-worker';
import { checkEventsCanFire, checkHeaders, checkRecipients, checkUrl } from './notification-rules';
import { CreateNotificationDto, PatchNotificationDto } from './notifications.dto';
import { NotificationsRepository } from './notifications.repository';
import { TEST_PAYLOAD } from './notification-payload';

/** What a test send answers. */
export interface TestOutcome {
  delivered: boolean;
  statusCode: number | null;
  error: string | null;
  delivery: NotificationDeliveryEntity;
}

/**
 * Notification channels (docs/notifications.md): their rules (per type, SSRF, recipients, headers, clients) and
 * the test send. A client-limited caller only sees and makes channels limited to its own clients (a channel of
 * every client, or naming another client, does not exist for it: 404, absent from lists).
 */
@Injectable()
export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepository,
    private readonly worker: DeliveryWorker,
    private readonly config: RuntimeConfig,
    private readonly clock: Clock,
  ) {}

  list(page: Page, clients: ClientScope): Promise<[NotificationChannelEntity[], number]> {
    return this.repo.list(page, clients);
  }

  async get(id: number, clients: ClientScope): Promise<NotificationChannelEntity> {
    const c = await this.repo.findVisible(id, clients);
    if (!c) throw notFound();
    return c;
  }

  async create(body: CreateNotificationDto, clients: ClientScope): Promise<NotificationChannelEntity> {
    const name = requireName(body.name);
    const target = this.target(body.type, body.url, body.to);
    if (body.type === 'email') this.noHttpFields(body);
    checkEventsCanFire(body.events, body.min_severity);
    return this.repo.insert({
      name,
      type: body.type,
      ...target,
      secret: body.secret ?? null,
      headers: body.headers === undefined ? {} : checkHeaders(body.headers),
      minSeverity: body.min_severity,
      events: [...new Set(body.events)],
      clients: await this.checkClients(body.clients ?? [], clients),
      enabled: true,
    });
  }

  /** A change of where it sends or of its secrets (url, to, secret, headers) is a step-up action for an operator (docs/sso.md). */
  async update(id: number, body: PatchNotificationDto, clients: ClientScope, caller?: Principal): Promise<NotificationChannelEntity> {
    const c = await this.get(id, clients);
    if (caller && (['url', 'to', 'secret', 'headers'] as const).some((f) => body[f] !== undefined)) requireStepUp(caller, this.clock.now(), this.config.stepUpMinutes);
    const fields = ['name', 'url', 'to', 'secret', 'headers', 'min_severity', 'events', 'clients', 'enabled'] as const;
    if (fields.every((f) => body[f] === undefined)) throw fieldInvalid('name', `give at least one of ${fields.join(', ')}`);
    const change: Partial<NotificationChannelEntity> = {};
    if (body.name !== undefined) change.name = requireName(body.name);
    if (body.url !== undefined || body.to !== undefined) {
      if (c.type === 'email' && body.url !== undefined) throw fieldInvalid('url', 'an email channel has no url (give to)');
      if (c.type !== 'email' && body.to !== undefined) throw fieldInvalid('to', `a ${c.type} channel has no recipients (give url)`);
      Object.assign(change, this.target(c.type, body.url ?? c.url ?? undefined, body.to ?? (c.recipients.length ? c.recipients : undefined)));
    }
    if (c.type === 'email') this.noHttpFields({ secret: body.secret ?? undefined, headers: body.headers ?? undefined });
    if (body.secret !== undefined) change.secret = body.secret;
    if (body.headers !== undefined) change.headers = body.headers === null ? {} : checkHeaders(body.headers);
    if (body.min_severity !== undefined) change.minSeverity = body.min_severity;
    if (body.events !== undefined) change.events = [...new Set(body.events)];
    // A change of either side is checked against the other as it will be (a channel left as it was is not).
    if (body.events !== undefined || body.min_severity !== undefined) checkEventsCanFire(change.events ?? c.events, change.minSeverity ?? c.minSeverity);
    if (body.clients !== undefined) change.clients = await this.checkClients(body.clients, clients);
    if (body.enabled !== undefined) {
      change.enabled = body.enabled;
      if (body.enabled) change.disabledReason = null;
    }
    // A new destination, or the channel turned on again: its failures were the old state's, the circuit closes.
    if (body.url !== undefined || body.to !== undefined || body.enabled === true) Object.assign(change, { failingSince: null, lastFailure: null, circuitOpenedAt: null, circuitProbeAt: null });
    await this.repo.update(id, change);
    return this.get(id, null);
  }

  async remove(id: number, clients: ClientScope): Promise<void> {
    await this.get(id, clients);
    await this.repo.delete(id);
  }

  async deliveries(id: number, page: Page, clients: ClientScope): Promise<[NotificationDeliveryEntity[], number]> {
    await this.get(id, clients);
    return this.repo.listDeliveries(id, page);
  }

  /**
   * Sends a test notification now (event notification.test), once, and answers how it went; its delivery is
   * listed with the others (delivered or failed: a test is never retried). A disabled channel is tested too: that
   * is how an operator checks a receiver before turning the channel on again.
   */
  async test(id: number, clients: ClientScope): Promise<TestOutcome> {
    await this.get(id, clients);
    const claimed = await this.repo.insertTest(id, TEST_PAYLOAD, LEASE_SECONDS);
    const outcome = await this.worker.deliver({ ...claimed, channel: { ...claimed.channel, enabled: true } }, { once: true });
    const delivery = (await this.repo.findDelivery(claimed.id))!;
    return { delivered: delivery.status === 'delivered', statusCode: outcome.status, error: outcome.error, delivery };
  }

  /** url for webhook, slack and teams; to for email (with SMTP_URL configured), never both. */
  private target(type: NotificationType, url: string | undefined, to: string[] | undefined): Pick<NotificationChannelEntity, 'url' | 'recipients'> {
    if (type === 'email') {
      if (url !== undefined) throw fieldInvalid('url', 'an email channel has no url (give to)');
      if (to === undefined) throw fieldInvalid('to', 'an email channel needs to: one or more e-mail addresses');
      if (!this.config.smtpUrl) throw fieldInvalid('type', 'e-mail needs SMTP_URL, which this server is not configured with');
      return { url: null, recipients: checkRecipients(to) };
    }
    if (to !== undefined) throw fieldInvalid('to', `a ${type} channel has no recipients (give url)`);
    if (url === undefined) throw fieldInvalid('url', `a ${type} channel needs url`);
    return { url: checkUrl(url, this.config.notifyAllowPrivate), recipients: [] };
  }

  private noHttpFields(body: { secret?: string; headers?: Record<string, string> }): void {
    if (body.secret !== undefined) throw fieldInvalid('secret', 'only webhook, slack and teams channels are signed');
    if (body.headers !== undefined && Object.keys(body.headers).length > 0) throw fieldInvalid('headers', 'only webhook, slack and teams channels send headers');
  }

  /** Existing clients; a client-limited caller must name some, all of them its own ("no such client" otherwise). */
  private async checkClients(ids: number[], scope: ClientScope): Promise<number[]> {
    const wanted = [...new Set(ids)].sort((a, b) => a - b);
    if (scope !== null && wanted.length === 0) throw fieldInvalid('clients', 'a key limited to some clients must name the channel\'s clients (its own)');
    const existing = new Set(await this.repo.existingClients(wanted));
    const missing = wanted.find((id) => !existing.has(id) || (scope !== null && !scope.includes(id)));
    if (missing !== undefined) throw fieldInvalid('clients', `no such client: ${missing}`);
    return wanted;
  }
}

function requireName(name: string): string {
  const clean = (name ?? '').trim();
  if (!clean) throw fieldInvalid('name', 'must not be empty');
  return clean;
}
