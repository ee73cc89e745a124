import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../../database/transaction-host';
import { ClientScope } from '../../common/client-scope';
import { AGENT_EXISTS_SQL } from '../../fleet/agents/agents.sql';

/** One stored override, with its policy's name. */
export interface OverrideRow {
  policy: number;
  policy_name: string;
  key: string;
  disabled: boolean;
  settings: Record<string, unknown> | null;
  run_interval: number | null;
  fails_b4_alert: number | null;
}

@Injectable()
export class OverridesRepository {
  constructor(private readonly tx: TransactionHost) {}

  async agentExists(id: number, clients: ClientScope): Promise<boolean> {
    const [row] = await this.tx.rows<{ found: boolean }>(AGENT_EXISTS_SQL, [id, clients]);
    return row.found;
  }

  /** The agent's overrides, by policy and key. */
  list(agentId: number): Promise<OverrideRow[]> {
    return this.tx.rows<OverrideRow>(
      `SELECT o.policy_id AS policy, p.name AS policy_name, o.key, o.disabled, o.settings, o.run_interval, o.fails_b4_alert
         FROM policy_overrides o JOIN policies p ON p.id = o.policy_id WHERE o.agent_id = $1 ORDER BY o.policy_id, o.key`,
      [agentId],
    );
  }

  /** Replaces the agent's overrides with these (two statements, in the caller's transaction). */
  async replace(agentId: number, rows: Array<Omit<OverrideRow, 'policy_name'>>): Promise<void> {
    await this.tx.exec(`DELETE FROM policy_overrides WHERE agent_id = $1`, [agentId]);
    if (rows.length === 0) return;
    await this.tx.exec(
      `INSERT INTO policy_overrides (agent_id, policy_id, key, disabled, settings, run_interval, fails_b4_alert)
       SELECT $1, o.policy, o.key, o.disabled, o.settings, o.run_interval, o.fails_b4_alert
         FROM jsonb_to_recordset($2::jsonb) AS o(policy int, key text, disabled boolean, settings jsonb, run_interval int, fails_b4_alert int)`,
      [agentId, JSON.stringify(rows)],
    );
  }
}
