import { Injectable } from '@nestjs/common';
import type { MaintenanceWindow } from '@app/entities';
import { Clock } from '../../../common/clock';
import { DomainError, FieldError, invalid, notFound } from '../../../common/errors/domain-error';
import { isUniqueViolation } from '../../../database/pg-errors';
import { TransactionHost } from '../../../database/transaction-host';
import { AuditService } from '../../access/audit/audit.service';
import { RmmEvents } from '../../common/bus/rmm-events';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { permissionDenied } from '../../common/principal';
import { CreatePolicyDto, MAX_POLICIES, PolicyDto, PolicyPreviewDto, PreviewPolicyDto, PRIORITY_DEFAULT, UpdatePolicyDto } from './policies.dto';
import { PoliciesErrorCode } from './policies.errors';
import { toPolicyDto } from './policies.mapper';
import { NewCheckItem, NewTaskItem, PoliciesRepository, PolicyFields, PolicyRow } from './policies.repository';
import { PolicyCatalogCache } from './policy-catalog-cache';
import { PolicyEngine } from './policy-engine';
import { checkItems, normalizeExclusions, normalizeTargets, normalizeWindows, taskItems } from './policy-input';
import { matches } from './policy-merge';

/** Who asks: the clients it may see, whether it may make code run (scripts:run), and its request (the audit row). */
export interface PolicyCaller {
  clients: ClientScope;
  mayRunScripts: boolean;
  requestId: string | null;
}

/** A policy as a body makes it: its fields, and its item lists when the body gives them (PATCH keeps the others). */
interface Resolved {
  fields: PolicyFields;
  checks: NewCheckItem[] | undefined;
  tasks: NewTaskItem[] | undefined;
}

/** How many added/removed agents a preview names. */
export const PREVIEW_NAMED = 50;

/** A policy as the audit shows it before and after a change (its answer without the match count). */
const audited = (p: PolicyRow | null): Omit<PolicyDto, 'agents'> | null => {
  if (!p) return null;
  const { agents: _count, ...rest } = toPolicyDto(p, 0);
  return rest;
};

/** Whether a policy makes code run on agents: a script check or any task (as per-agent ones need scripts:run). */
const runsCode = (p: { checks?: Array<{ check_type?: string; checkType?: string }>; tasks?: unknown[] } | null | undefined): boolean =>
  !!p && ((p.checks ?? []).some((c) => (c.check_type ?? c.checkType) === 'script') || (p.tasks ?? []).length > 0);

@Injectable()
export class PoliciesService {
  constructor(
    private readonly repo: PoliciesRepository,
    private readonly cache: PolicyCatalogCache,
    private readonly tx: TransactionHost,
    private readonly events: RmmEvents,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly engine: PolicyEngine,
  ) {}

  /** The caller's policies, each with how many agents it matches now. */
  async list(page: Page, caller: PolicyCaller): Promise<[PolicyDto[], number]> {
    const [rows, total] = await this.repo.list(page, caller.clients);
    const counts = await this.counts(rows);
    return [rows.map((p, i) => toPolicyDto(p, counts[i])), total];
  }

  async get(id: number, caller: PolicyCaller): Promise<PolicyDto> {
    return this.withCount(await this.visible(id, caller.clients));
  }

  /** Creates the policy with its items (at most MAX_POLICIES; names unique). */
  async create(body: CreatePolicyDto, caller: PolicyCaller): Promise<PolicyDto> {
    if (runsCode(body) && !caller.mayRunScripts) throw permissionDenied();
    const r = await this.resolve(null, body, caller);
    const id = await this.tx.run(async () => {
      if ((await this.repo.lockForCreate()) >= MAX_POLICIES) {
        throw new DomainError(PoliciesErrorCode.TooMany, `at most ${MAX_POLICIES} policies: delete one before creating another`);
      }
      const id = await this.named(r.fields.name, () => this.repo.insert(r.fields));
      await this.repo.replaceChecks(id, r.checks ?? []);
      await this.repo.replaceTasks(id, r.tasks ?? []);
      this.changed(id);
      return id;
    });
    const after = (await this.repo.findById(id, null))!;
    this.note(caller, null, after);
    return this.withCount(after);
  }

  /** Changes what the body gives; `checks` / `tasks` replace their lists, an item whose key stays keeps its id. */
  async update(id: number, body: UpdatePolicyDto, caller: PolicyCaller): Promise<PolicyDto> {
    const current = await this.visible(id, caller.clients);
    if ((runsCode(body) || runsCode(current)) && !caller.mayRunScripts) throw permissionDenied();
    const before = await this.tx.run(async () => {
      // The body applies to the policy as it is under the lock: two PATCHes of one policy do not undo each other.
      const locked = await this.repo.findById(id, caller.clients, true);
      if (!locked) throw notFound();
      if (runsCode(locked) && !caller.mayRunScripts) throw permissionDenied();
      const r = await this.resolve(locked, body, caller);
      await this.named(r.fields.name, () => this.repo.update(id, r.fields));
      // Items leaving the policy take their agents' rows with them: their open alerts are resolved first.
      const leaving = await this.repo.itemsLeaving(id, r.checks?.map((c) => c.key), r.tasks?.map((t) => t.key));
      if (leaving.checkIds.length > 0 || leaving.taskIds.length > 0) await this.engine.beforeItemsRemoved(leaving);
      if (r.checks) await this.repo.replaceChecks(id, r.checks);
      if (r.tasks) await this.repo.replaceTasks(id, r.tasks);
      this.changed(id);
      return locked;
    });
    const after = (await this.repo.findById(id, null))!;
    this.note(caller, before, after);
    return this.withCount(after);
  }

  async delete(id: number, caller: PolicyCaller): Promise<void> {
    const before = await this.tx.run(async () => {
      const p = await this.repo.findById(id, caller.clients, true);
      if (!p) throw notFound();
      await this.engine.beforeItemsRemoved({ policyId: id });
      if (!(await this.repo.delete(id))) throw notFound();
      this.changed(id);
      return p;
    });
    this.note(caller, before, null);
  }

  /**
   * Which agents a policy body would match, without saving: a new policy, or `{id, ...changes}` to a saved one
   * (added / removed: agents that start / stop matching compared with the saved policy).
   */
  async preview(body: PreviewPolicyDto, caller: PolicyCaller): Promise<PolicyPreviewDto> {
    const { id, ...changes } = body;
    // (an id the body names that is none of the caller's policies: a 400 naming it, as any unknown reference in a body)
    const saved = id === undefined ? null : await this.repo.findById(id, caller.clients);
    if (id !== undefined && !saved) throw invalid('validation error', [{ field: 'id', message: `no policy ${id}` }]);
    const r = await this.resolve(saved, { ...changes, name: changes.name ?? saved?.name ?? 'preview' }, caller);
    const agents = await this.repo.agentFacts();
    const after = agents.filter((a) => matches(r.fields, a)).map((a) => a.id);
    const beforeSet = new Set(saved ? agents.filter((a) => matches(saved, a)).map((a) => a.id) : []);
    const afterSet = new Set(after);
    const added = after.filter((a) => !beforeSet.has(a)).sort((a, b) => a - b);
    const removed = [...beforeSet].filter((a) => !afterSet.has(a)).sort((a, b) => a - b);
    const shown = [...added.slice(0, PREVIEW_NAMED), ...removed.slice(0, PREVIEW_NAMED)];
    const hostnames = await this.repo.hostnames(shown);
    const named = (ids: number[]) => ids.slice(0, PREVIEW_NAMED).map((a) => ({ id: String(a), hostname: hostnames.get(a) ?? '' }));
    return { agents: after.length, total_added: added.length, total_removed: removed.length, added: named(added), removed: named(removed) };
  }

  private async withCount(p: PolicyRow): Promise<PolicyDto> {
    const [n] = await this.counts([p]);
    return toPolicyDto(p, n);
  }

  /**
   * How many agents each policy matches: matched per group of alike agents (agentGroups: one statement, far fewer
   * rows than agents), then the agents a policy excludes by id taken off where they would match otherwise.
   */
  private async counts(policies: PolicyRow[]): Promise<number[]> {
    if (policies.length === 0) return [];
    const excluded = [...new Set(policies.flatMap((p) => p.exclude?.agents ?? []))];
    const [groups, excludedAgents] = await Promise.all([this.repo.agentGroups(), this.repo.agentFactsOf(excluded)]);
    return policies.map((p) => {
      const { agents: byId, ...exclude } = p.exclude ?? {};
      const rule = { enabled: p.enabled, targets: p.targets, exclude };
      let n = 0;
      for (const g of groups) if (matches(rule, { id: 0, ...g })) n += g.n;
      for (const a of excludedAgents) if (byId?.includes(a.id) && matches(rule, a)) n--;
      return n;
    });
  }

  /** The policy, if it exists and the caller may see it; else 404. */
  private async visible(id: number, clients: ClientScope): Promise<PolicyRow> {
    const p = await this.repo.findById(id, clients);
    if (!p) throw notFound();
    return p;
  }

  /** The policy a body makes of `base` (null: a new one), validated; every problem found is in one 400. */
  private async resolve(base: PolicyRow | null, body: UpdatePolicyDto, caller: PolicyCaller): Promise<Resolved> {
    const errors: FieldError[] = [];
    const targets = body.targets !== undefined ? normalizeTargets(body.targets, errors) : (base?.targets ?? {});
    const exclude = body.exclude !== undefined ? normalizeExclusions(body.exclude, errors) : (base?.exclude ?? {});
    const windows: MaintenanceWindow[] = body.maintenance_windows !== undefined ? normalizeWindows(body.maintenance_windows, errors) : (base?.maintenanceWindows ?? []);
    const checks = body.checks !== undefined ? checkItems(body.checks, errors) : undefined;
    const tasks = body.tasks !== undefined ? taskItems(body.tasks, this.clock.now(), errors) : undefined;
    const name = (body.name ?? base?.name ?? '').trim();
    if (name.length === 0) errors.push({ field: 'name', message: 'must not be empty' });

    // A limited caller's policy targets only its clients, and names at least one.
    const clients = caller.clients;
    if (clients !== null) {
      const given = targets.clients ?? [];
      if (given.length === 0) errors.push({ field: 'targets.clients', message: 'must name at least one of your clients' });
    }
    const visibleClient = (c: number | null | undefined): boolean => clients === null || (c !== null && c !== undefined && clients.includes(c));

    const clientIds = [...(targets.clients ?? []), ...(exclude.clients ?? [])];
    const siteIds = [...(targets.sites ?? []), ...(exclude.sites ?? [])];
    const scriptIds = [...(checks ?? []).flatMap((c) => (c.scriptId === null ? [] : [c.scriptId])), ...(tasks ?? []).map((t) => t.scriptId)];
    // One after the other: inside a transaction they share its one connection.
    const knownClients = await this.repo.existingClients(clientIds);
    const sites = await this.repo.sitesClients(siteIds);
    const agents = await this.repo.agentsClients(exclude.agents ?? []);
    const scripts = await this.repo.existingScripts(scriptIds);
    const noClient = (field: string, list: number[] | undefined): void => {
      for (const c of list ?? []) if (!knownClients.has(c) || !visibleClient(c)) errors.push({ field, message: `no client ${c}` });
    };
    const noSite = (field: string, list: number[] | undefined): void => {
      for (const s of list ?? []) if (!sites.has(s) || !visibleClient(sites.get(s))) errors.push({ field, message: `no site ${s}` });
    };
    noClient('targets.clients', targets.clients);
    noClient('exclude.clients', exclude.clients);
    noSite('targets.sites', targets.sites);
    noSite('exclude.sites', exclude.sites);
    for (const a of exclude.agents ?? []) if (!agents.has(a) || !visibleClient(agents.get(a))) errors.push({ field: 'exclude.agents', message: `no agent ${a}` });
    (checks ?? []).forEach((c) => {
      if (c.scriptId !== null && !scripts.has(c.scriptId)) errors.push({ field: `checks[${c.position}].settings.script`, message: `no script ${c.scriptId}` });
    });
    (tasks ?? []).forEach((t) => {
      if (!scripts.has(t.scriptId)) errors.push({ field: `tasks[${t.position}].script`, message: `no script ${t.scriptId}` });
    });
    if (errors.length > 0) throw invalid('validation error', errors);

    return {
      fields: {
        name,
        description: body.description !== undefined ? (body.description?.trim() || null) : (base?.description ?? null),
        enabled: body.enabled ?? base?.enabled ?? true,
        enforced: body.enforced ?? base?.enforced ?? false,
        priority: body.priority ?? base?.priority ?? PRIORITY_DEFAULT,
        targets,
        exclude,
        maintenanceWindows: windows,
      },
      checks,
      tasks,
    };
  }

  /** Runs a write that sets the name; the unique index's refusal is a 409 naming it. */
  private async named<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(PoliciesErrorCode.NameTaken, `a policy named "${name}" already exists`, [{ field: 'name', message: 'already exists' }]);
      throw err;
    }
  }

  /** At the commit: the cached catalog is stale, and the engine (and every instance) hears of the change. */
  private changed(policyId: number): void {
    this.tx.afterCommit(() => this.cache.invalidate());
    this.events.emit('policies.changed', { policyId });
  }

  /** The audit row of this request carries the policy before and after (null: created / deleted). */
  private note(caller: PolicyCaller, before: PolicyRow | null, after: PolicyRow | null): void {
    if (caller.requestId) this.audit.noteChanges(caller.requestId, { before: audited(before), after: audited(after) });
  }
}
