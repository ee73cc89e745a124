import {
  AgentEntity,
  AlertEntity,
  ApiKeyEntity,
  ApiKeyScope,
  CheckEntity,
  CheckType,
  ClientEntity,
  ScriptEntity,
  SiteEntity,
  TaskEntity,
} from '@app/entities';
import { ApiKeysService } from '../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { ChecksService } from '../../apps/api/src/rmm/automation/checks/checks.service';
import { ClientsService } from '../../apps/api/src/rmm/tenancy/clients/clients.service';
import { ScriptsService } from '../../apps/api/src/rmm/automation/scripts/scripts.service';
import { TasksService } from '../../apps/api/src/rmm/automation/tasks/tasks.service';
import type { MediumContext } from './medium.harness';
import { EVERY_CLIENT } from '../../apps/api/src/rmm/common/client-scope';

let seq = 0;
/** A name no other row of this file has: `${prefix} 7`. */
export const uniqueName = (prefix: string): string => `${prefix} ${++seq}`;

/**
 * Rows for medium tests, made the way the app makes them: through the real services (so their rules
 * apply) or, for what no service creates yet (agents register through the agent channel, alerts are
 * raised by checks), through the TypeORM repository. Every option has a sensible default, and a missing
 * parent (a client for a site, a tenant for an agent, an agent or script for a task) is made too.
 */
export class MediumFactory {
  constructor(private readonly ctx: MediumContext) {}

  newClient(o: { name?: string } = {}): Promise<ClientEntity> {
    return this.ctx.get(ClientsService).createClient(o.name ?? uniqueName('Client'));
  }

  async newSite(o: { clientId?: number; name?: string } = {}): Promise<SiteEntity> {
    const clientId = o.clientId ?? (await this.newClient()).id;
    return this.ctx.get(ClientsService).createSite(clientId, o.name ?? uniqueName('Site'), EVERY_CLIENT);
  }

  /** An agent row as the agent channel would register it; its client and site are made when not given. */
  async newAgent(o: Partial<AgentEntity> & { hostname?: string; clientId?: number | null; siteId?: number | null } = {}): Promise<AgentEntity> {
    const { hostname = uniqueName('HOST').replace(' ', '-'), clientId, siteId, ...rest } = o;
    let tenant: { clientId: number | null; siteId: number | null };
    if (siteId !== undefined) {
      tenant = { clientId: clientId ?? (siteId === null ? null : (await this.ctx.get(ClientsService).findSite(siteId))!.clientId), siteId };
    } else {
      const site = await this.newSite(clientId ? { clientId } : {});
      tenant = { clientId: site.clientId, siteId: site.id };
    }
    const agents = this.ctx.repo(AgentEntity);
    return agents.save(
      agents.create({
        hostname,
        ...tenant,
        plat: 'windows',
        monitoringType: 'workstation',
        status: 'online',
        operatingSystem: 'Windows 11 Pro 23H2',
        version: '2.8.0',
        lastSeen: this.ctx.clock.now(),
        ...rest,
      }),
    );
  }

  newScript(o: { name?: string; shell?: ScriptEntity['shell']; body?: string; description?: string | null; args?: string[]; default_timeout?: number } = {}): Promise<ScriptEntity> {
    return this.ctx.get(ScriptsService).create({ name: uniqueName('Script'), shell: 'bash', body: 'echo ok', ...o });
  }

  /** A check through ChecksService (settings validated per type; as a key with scripts:run); a ping check on a new agent by default. */
  async newCheck(o: { agentId?: number; checkType?: CheckType; settings?: Record<string, unknown>; name?: string; failsB4Alert?: number } = {}): Promise<CheckEntity> {
    const agentId = o.agentId ?? (await this.newAgent()).id;
    const checkType = o.checkType ?? 'ping';
    const settings = o.settings ?? (checkType === 'ping' ? { target: '8.8.8.8' } : checkType === 'script' ? { script: (await this.newScript()).id } : {});
    return this.ctx.get(ChecksService).create({ agent: String(agentId), check_type: checkType, settings, name: o.name, fails_b4_alert: o.failsB4Alert }, EVERY_CLIENT, true);
  }

  /** A task through TasksService (next_run_at from the clock); on a new agent and a new script by default. */
  async newTask(o: { agentId?: number; scriptId?: number; schedule?: string; enabled?: boolean; name?: string } = {}): Promise<TaskEntity> {
    const agentId = o.agentId ?? (await this.newAgent()).id;
    const scriptId = o.scriptId ?? (await this.newScript()).id;
    return this.ctx.get(TasksService).create({ name: o.name ?? uniqueName('Task'), agent: String(agentId), script: scriptId, schedule: o.schedule ?? '0 3 * * *', enabled: o.enabled }, EVERY_CLIENT);
  }

  /** An API key through ApiKeysService; returns the row and the secret (shown once). */
  newKey(o: { name?: string; scopes?: ApiKeyScope[]; expiresAt?: Date | null; secret?: string } = {}): Promise<{ key: ApiKeyEntity; secret: string }> {
    const input = { name: o.name ?? uniqueName('key'), scopes: o.scopes ?? ['agents:read'], expiresAt: o.expiresAt };
    const keys = this.ctx.get(ApiKeysService);
    return o.secret === undefined ? keys.create(input) : keys.create(input, o.secret);
  }

  /** An active alert as a failing check would raise it; on a new agent by default. */
  async newAlert(o: Partial<AlertEntity> = {}): Promise<AlertEntity> {
    const agentId = o.agentId ?? (await this.newAgent()).id;
    const alerts = this.ctx.repo(AlertEntity);
    return alerts.save(alerts.create({ alertType: 'check_failure', severity: 'warning', message: 'Disk C: below 10% free', createdAt: this.ctx.clock.now(), ...o, agentId }));
  }
}
