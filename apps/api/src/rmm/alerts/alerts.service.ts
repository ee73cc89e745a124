import { Injectable } from '@nestjs/common';
import { AlertEntity } from '@app/entities';
import { Clock } from '../../common/clock';
import { notFound } from '../../common/errors/domain-error';
import { Page } from '../common/pagination.dto';
import { RmmEvents } from '../events/rmm-events';
import { toAlertDto } from './alerts.dto';
import { AlertFilter, AlertsRepository } from './alerts.repository';

@Injectable()
export class AlertsService {
  constructor(
    private readonly repo: AlertsRepository,
    private readonly clock: Clock,
    private readonly events: RmmEvents,
  ) {}

  list(filter: AlertFilter, page: Page): Promise<[AlertEntity[], number]> {
    return this.repo.list(filter, page);
  }

  async get(id: number): Promise<AlertEntity> {
    const a = await this.repo.findById(id);
    if (!a) throw notFound();
    return a;
  }

  /** Marks the alert seen (not resolved): who (the key's name) and when. Idempotent. */
  async acknowledge(id: number, by: string): Promise<AlertEntity> {
    const before = await this.get(id);
    await this.repo.acknowledge(id, by, this.clock.now());
    const after = await this.get(id);
    if (!before.acknowledged) this.events.emit('alert.acknowledged', { agentId: after.agentId, alert: toAlertDto(after) });
    return after;
  }

  /** Resolves the alert: it leaves the active list. Idempotent. */
  async resolve(id: number, by: string): Promise<AlertEntity> {
    const before = await this.get(id);
    await this.repo.resolve(id, by, this.clock.now());
    const after = await this.get(id);
    if (!before.resolved) this.events.emit('alert.resolved', { agentId: after.agentId, alert: toAlertDto(after) });
    return after;
  }
}
