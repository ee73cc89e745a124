import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { notFound } from '../../../common/errors/domain-error';
import { ClientScope, inScope } from '../../common/client-scope';
import { EffectiveMaintenanceDto, EffectivePolicyDto } from './policies.dto';
import { shownSettings, toEffectiveCheckDto, toEffectiveTaskDto } from './policies.mapper';
import { PoliciesRepository } from './policies.repository';
import { PolicyCatalogCache } from './policy-catalog-cache';
import { checkKey, merge, Names, taskKey, windowMaintenance } from './policy-merge';

/**
 * One agent's effective checks and tasks, explained (GET /api/v3/agents/{id}/effective-policy/): the merge of
 * policy-merge.ts over its own items, every policy (the cached catalog), its overrides and its client's and site's
 * names, so the answer is computed by the same code the engine applies.
 */
@Injectable()
export class EffectivePolicyService {
  constructor(
    private readonly repo: PoliciesRepository,
    private readonly cache: PolicyCatalogCache,
    private readonly clock: Clock,
  ) {}

  async of(agentId: number, clients: ClientScope): Promise<EffectivePolicyDto> {
    const agent = await this.repo.agent(agentId);
    if (!agent || !inScope(clients, agent.clientId)) throw notFound();
    const [policies, checks, tasks, overrides] = await Promise.all([this.cache.all(), this.repo.agentChecks(agentId), this.repo.agentTasks(agentId), this.repo.overrides(agentId)]);
    const names: Names = {
      clients: new Map(agent.clientId !== null && agent.clientName !== null ? [[agent.clientId, agent.clientName]] : []),
      sites: new Map(agent.siteId !== null && agent.siteName !== null ? [[agent.siteId, agent.siteName]] : []),
    };
    const own = {
      checks: checks.own.map(({ enabled: _e, ...c }) => ({ ...c, key: checkKey(c.checkType, shownSettings(c)) })),
      tasks: tasks.own.map(({ enabled: _e, ...t }) => ({ ...t, key: taskKey(t.scriptId, t.args ?? [], t.schedule) })),
    };
    // An own item the operator disabled keeps its key (as an override's disable does) but does not run.
    const disabledChecks = new Set(checks.own.filter((c) => !c.enabled).map((c) => c.id));
    const disabledTasks = new Set(tasks.own.filter((t) => !t.enabled).map((t) => t.id));
    const effective = merge(agent, policies, own, overrides, names);
    return {
      checks: effective.checks.map((c) => toEffectiveCheckDto(c, checks.state, disabledChecks)),
      tasks: effective.tasks.map((t) => toEffectiveTaskDto(t, tasks.state, disabledTasks)),
      maintenance: this.maintenance(agent, policies, names),
    };
  }

  /** Manual maintenance wins (it has no end); else the window of a matching policy in force now, if any. */
  private maintenance(agent: Parameters<typeof windowMaintenance>[0] & { maintenance: boolean }, policies: Parameters<typeof windowMaintenance>[1], names: Names): EffectiveMaintenanceDto {
    if (agent.maintenance) return { active: true, until: null, source: { type: 'agent' } };
    const w = windowMaintenance(agent, policies, this.clock.now(), names);
    if (!w.active || !w.source) return { active: false, until: null, source: null };
    return { active: true, until: w.until!.toISOString(), source: { type: 'policy', policy: { id: w.source.id, name: w.source.name } } };
  }
}
