import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../../database/transaction-host';
import { PolicyFacts } from './policy-merge';

/** Every policy with its items, in one statement (at most 500 policies). */
export const POLICY_FACTS_SQL = `
  SELECT p.id, p.name, p.enabled, p.enforced, p.priority, p.targets, p.exclude, p.maintenance_windows AS "maintenanceWindows",
    coalesce((SELECT json_agg(json_build_object('id', c.id, 'key', c.key, 'checkType', c.check_type, 'name', c.name, 'settings', c.settings,
        'scriptId', c.script_id, 'runInterval', c.run_interval, 'failsB4Alert', c.fails_b4_alert, 'severity', c.severity) ORDER BY c.position, c.id)
      FROM policy_checks c WHERE c.policy_id = p.id), '[]') AS checks,
    coalesce((SELECT json_agg(json_build_object('id', t.id, 'key', t.key, 'name', t.name, 'scriptId', t.script_id, 'args', t.args,
        'schedule', t.schedule, 'timeout', t.timeout, 'queueIfOffline', t.queue_if_offline, 'skipInMaintenance', t.skip_in_maintenance) ORDER BY t.position, t.id)
      FROM policy_tasks t WHERE t.policy_id = p.id), '[]') AS tasks
  FROM policies p`;

/**
 * The policies as the merge sees them (policy-merge.ts), read in one statement. Shared by the policies API
 * (effective policy, preview) and the engine that writes each agent's items.
 */
@Injectable()
export class PolicyCatalog {
  constructor(private readonly tx: TransactionHost) {}

  /** Every policy (enabled or not: matchReason skips disabled ones), by id. */
  all(): Promise<PolicyFacts[]> {
    return this.tx.rows<PolicyFacts>(`${POLICY_FACTS_SQL} ORDER BY p.id`);
  }

  /** One policy, or null. */
  async one(id: number): Promise<PolicyFacts | null> {
    const [row] = await this.tx.rows<PolicyFacts>(`${POLICY_FACTS_SQL} WHERE p.id = $1`, [id]);
    return row ?? null;
  }
}
