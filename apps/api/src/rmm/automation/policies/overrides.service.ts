import { Injectable } from '@nestjs/common';
import { DomainError, FieldError, invalid, notFound } from '../../../common/errors/domain-error';
import { TransactionHost } from '../../../database/transaction-host';
import { ClientScope } from '../../common/client-scope';
import { permissionDenied } from '../../common/principal';
import { settingsErrors } from '../checks/check-settings';
import { parseOverrides } from './overrides.dto';
import { OverridesErrorCode } from './overrides.errors';
import { OverrideRow, OverridesRepository } from './overrides.repository';
import { PolicyCatalog } from './policy-catalog';
import { PolicyEngine } from './policy-engine';

/**
 * An agent's policy overrides (issue #31 point 4, docs/policies.md "Overrides"): each disables or adjusts one item of
 * a non-enforced policy on this one agent. A PUT replaces them all, then the engine recomputes the agent at once
 * (its new check list is sent before the answer).
 */
@Injectable()
export class OverridesService {
  constructor(
    private readonly repo: OverridesRepository,
    private readonly catalog: PolicyCatalog,
    private readonly engine: PolicyEngine,
    private readonly tx: TransactionHost,
  ) {}

  async list(agentId: number, clients: ClientScope): Promise<OverrideRow[]> {
    if (!(await this.repo.agentExists(agentId, clients))) throw notFound();
    return this.repo.list(agentId);
  }

  /**
   * Validates every override against the policies as they are (the policy exists and has an item with that key;
   * settings valid for the check's type; a task can only be disabled); an enforced policy's item is a 409
   * `enforced by policy <name>`. An agent of another client than the caller's is answered 404. Changing a script
   * check's settings changes what runs on the agent: it needs `mayRunScripts` (the caller's scripts:run), else 403.
   */
  async replace(agentId: number, body: unknown, clients: ClientScope, mayRunScripts = false): Promise<OverrideRow[]> {
    if (!(await this.repo.agentExists(agentId, clients))) throw notFound();
    const given = parseOverrides(body);
    const policies = new Map((await this.catalog.all()).map((p) => [p.id, p]));
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    const rows = given.map((o, i) => {
      const row = { policy: o.policy, key: o.key, disabled: o.disabled ?? false, settings: o.settings ?? null, run_interval: o.run_interval ?? null, fails_b4_alert: o.fails_b4_alert ?? null };
      const policy = policies.get(o.policy);
      if (!policy) {
        errors.push({ field: `[${i}].policy`, message: `no policy ${o.policy}` });
        return row;
      }
      const check = policy.checks.find((c) => c.key === o.key);
      const task = policy.tasks.find((t) => t.key === o.key);
      if (!check && !task) {
        errors.push({ field: `[${i}].key`, message: `policy ${policy.name} has no item ${o.key}` });
        return row;
      }
      if (policy.enforced) throw new DomainError(OverridesErrorCode.Enforced, `enforced by policy ${policy.name}`);
      if (seen.has(`${o.policy}\u0000${o.key}`)) errors.push({ field: `[${i}].key`, message: 'given twice' });
      seen.add(`${o.policy}\u0000${o.key}`);
      if (check && row.settings !== null) {
        if (check.checkType === 'script' && !mayRunScripts) throw permissionDenied();
        const settings = check.checkType === 'script' ? { ...row.settings, script: check.scriptId } : row.settings;
        errors.push(...settingsErrors(check.checkType, settings).map((e) => ({ field: `[${i}].${e.field}`, message: e.message })));
        if (check.checkType === 'script') delete row.settings.script;
      }
      if (task && (row.settings !== null || row.run_interval !== null || row.fails_b4_alert !== null)) {
        errors.push({ field: `[${i}]`, message: 'a task can only be disabled' });
      }
      return row;
    });
    if (errors.length > 0) throw invalid('validation error', errors);
    await this.tx.run(() => this.repo.replace(agentId, rows));
    await this.engine.reconcile([agentId]);
    return this.repo.list(agentId);
  }
}
