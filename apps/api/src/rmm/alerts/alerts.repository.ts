import { Injectable } from '@nestjs/common';
import { FindOptionsWhere, IsNull, Repository } from 'typeorm';
import { TransactionHost } from '../../database/transaction-host';
import { AlertEntity, AlertSeverity, AlertType } from '@app/entities';
import { Page } from '../common/pagination.dto';

export interface AlertFilter {
  agentId?: number;
  severity?: AlertSeverity;
  alertType?: AlertType;
  resolved: boolean;
  snoozed?: boolean;
}

@Injectable()
export class AlertsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get alerts(): Repository<AlertEntity> {
    return this.tx.repo(AlertEntity);
  }


  /** By id (the order they were raised); active alerts use IDX_alerts_active. */
  list(f: AlertFilter, page: Page): Promise<[AlertEntity[], number]> {
    const where: FindOptionsWhere<AlertEntity> = { resolved: f.resolved };
    if (f.agentId !== undefined) where.agentId = f.agentId;
    if (f.severity !== undefined) where.severity = f.severity;
    if (f.alertType !== undefined) where.alertType = f.alertType;
    if (f.snoozed !== undefined) where.snoozed = f.snoozed;
    return this.alerts.findAndCount({ where, order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  findById(id: number): Promise<AlertEntity | null> {
    return this.alerts.findOneBy({ id });
  }

  /** First acknowledgement wins: a second one changes nothing. */
  async acknowledge(id: number, by: string, at: Date): Promise<void> {
    await this.alerts.update({ id, acknowledgedAt: IsNull() }, { acknowledged: true, acknowledgedAt: at, acknowledgedBy: by });
  }

  /** First resolution wins. */
  async resolve(id: number, by: string, at: Date): Promise<void> {
    await this.alerts.update({ id, resolved: false }, { resolved: true, resolvedAt: at, resolvedBy: by });
  }
}
