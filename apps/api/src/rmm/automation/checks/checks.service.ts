import { Injectable } from '@nestjs/common';
import { CheckEntity, CheckResultEntity, CheckType } from '@app/entities';
import { DomainError, invalid, notFound } from '../../../common/errors/domain-error';
import { AlertsService } from '../../alerting/alerts/alerts.service';
import { permissionDenied } from '../../common/principal';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { defaultCheckName, settingsErrors } from './check-settings';
import { ChecksErrorCode } from './checks.errors';
import { CheckSync } from './check-sync';
import { CreateCheckDto, RUN_INTERVAL_DEFAULT, UpdateCheckDto } from './checks.dto';
import { CheckFields, ChecksRepository } from './checks.repository';

@Injectable()
export class ChecksService {
  constructor(
    private readonly repo: ChecksRepository,
    private readonly sync: CheckSync,
    private readonly alerts: AlertsService,
  ) {}

  /** `clients`: the caller's (checks of other clients' agents do not exist for it: 404, absent from lists). */
  list(agentId: number | undefined, page: Page, clients: ClientScope): Promise<[CheckEntity[], number]> {
    return this.repo.list(agentId, page, clients);
  }

  async get(id: number, clients: ClientScope): Promise<CheckEntity> {
    const c = await this.repo.findById(id, clients);
    if (!c) throw notFound();
    return c;
  }

  /** The check's results, newest first (404 for an unknown check). */
  async history(id: number, page: Page, clients: ClientScope): Promise<[CheckResultEntity[], number]> {
    await this.get(id, clients);
    return this.repo.history(id, page);
  }

  /**
   * Creates the check and sends the agent its new list (it runs the new check at once). A script check runs
   * code on the agent: it needs `mayRunScripts` (the key's scripts:run), else 403 before anything is read or written.
   * An agent of another client than the caller's is answered as an unknown one.
   */
  async create(body: CreateCheckDto, clients: ClientScope, mayRunScripts = false): Promise<CheckEntity> {
    if (body.check_type === 'script' && !mayRunScripts) throw permissionDenied();
    const agentId = Number(body.agent);
    const settings = await this.validSettings(body.check_type, body.settings);
    if (!(await this.repo.agentExists(agentId, clients))) throw invalid('validation error', [{ field: 'agent', message: `no agent ${body.agent}` }]);
    const check = await this.repo.insert({
      agentId,
      checkType: body.check_type,
      name: body.name?.trim() || defaultCheckName(body.check_type, body.settings),
      ...settings,
      failsB4Alert: body.fails_b4_alert ?? 1,
      runInterval: body.run_interval ?? RUN_INTERVAL_DEFAULT,
      severity: body.severity ?? 'warning',
      enabled: body.enabled ?? true,
    });
    this.sync.push(agentId);
    return check;
  }

  /**
   * Changes the check; its status, fail_count and open alert stay as they are until the agent's next result
   * (the agent runs a changed check at once). Any change of a script check needs `mayRunScripts` (the key's
   * scripts:run; the agent runs it again at once), else 403 before anything is written or sent.
   */
  async update(id: number, body: UpdateCheckDto, clients: ClientScope, mayRunScripts = false): Promise<CheckEntity> {
    const check = this.own(await this.get(id, clients));
    if (check.checkType === 'script' && !mayRunScripts) throw permissionDenied();
    const fields: Partial<CheckFields> = {};
    if (body.name !== undefined) fields.name = body.name.trim();
    if (body.fails_b4_alert !== undefined) fields.failsB4Alert = body.fails_b4_alert;
    if (body.run_interval !== undefined) fields.runInterval = body.run_interval;
    if (body.severity !== undefined) fields.severity = body.severity;
    if (body.enabled !== undefined) fields.enabled = body.enabled;
    if (body.settings !== undefined) {
      Object.assign(fields, await this.validSettings(check.checkType, body.settings));
      // A name generated from the settings follows them ("CPU load above 95%" becomes "… 100%"); a name the
      // operator gave stays. (A script check's settings carry its script as `script`, as the API shows them.)
      const before = check.checkType === 'script' ? { ...check.settings, script: check.scriptId } : check.settings;
      if (body.name === undefined && check.name === defaultCheckName(check.checkType, before)) fields.name = defaultCheckName(check.checkType, body.settings);
    }
    await this.repo.update(id, fields);
    // A disabled check is run by nobody: nothing would ever resolve its alert.
    if (fields.enabled === false && check.enabled) await this.alerts.resolveBySystem({ alertType: 'check_failure', id });
    this.sync.push(check.agentId);
    return this.get(id, clients);
  }

  /** Deletes the check: its open check_failure alert is resolved by 'system' first, and the agent stops running it. */
  async delete(id: number, clients: ClientScope): Promise<void> {
    const check = this.own(await this.get(id, clients));
    await this.alerts.resolveBySystem({ alertType: 'check_failure', id });
    if (!(await this.repo.delete(id))) throw notFound();
    this.sync.push(check.agentId);
  }

  /** The check, if it is the agent's own: a policy's is changed through the agent's policy overrides (409). */
  private own(check: CheckEntity): CheckEntity {
    if (check.policyCheckId !== null) {
      throw new DomainError(ChecksErrorCode.ManagedByPolicy, `managed by policy ${check.policyCheck?.policy?.name ?? check.policyCheckId}: use the agent's policy overrides`);
    }
    return check;
  }

  /** The settings to store: checked per type; a script check's script is a real reference (script_id). */
  private async validSettings(type: CheckType, given: Record<string, unknown>): Promise<Pick<CheckFields, 'settings' | 'scriptId'>> {
    const errors = settingsErrors(type, given);
    if (errors.length > 0) throw invalid('validation error', errors);
    if (type !== 'script') return { settings: given, scriptId: null };
    const { script, ...rest } = given;
    if (!(await this.repo.scriptExists(script as number))) throw invalid('validation error', [{ field: 'settings.script', message: `no script ${script}` }]);
    return { settings: rest, scriptId: script as number };
  }
}
