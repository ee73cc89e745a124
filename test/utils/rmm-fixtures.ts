import { ApiKeyScope } from '@app/entities';
import { ApiKeysService } from '../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { ClientsService } from '../../apps/api/src/rmm/tenancy/clients/clients.service';
import { sql } from './sql';
import { TestApp } from './test-app';

/** A fresh API key with these scopes; returns its secret (send it as X-API-KEY). */
export async function createKey(t: TestApp, scopes: ApiKeyScope[], name = `test-${scopes.join('+')}-${Math.random().toString(36).slice(2, 8)}`): Promise<string> {
  return (await t.server.app.get(ApiKeysService).create({ name, scopes })).secret;
}

/** A client with one site. */
export async function createTenant(t: TestApp, clientName: string, siteName = 'HQ'): Promise<{ clientId: number; siteId: number }> {
  const { client, site } = await t.server.app.get(ClientsService).ensureClientAndSite(clientName, siteName);
  return { clientId: client.id, siteId: site.id };
}

export interface AgentRow {
  hostname: string;
  clientId: number;
  siteId: number;
  plat?: 'windows' | 'darwin' | 'linux';
  monitoringType?: 'server' | 'workstation';
  status?: 'online' | 'offline' | 'overdue';
  patchesPending?: number;
}

/** Agents register through the agent channel (a later issue); tests insert them directly. Returns the id. */
export async function insertAgent(t: TestApp, a: AgentRow): Promise<number> {
  const [row] = await sql(
    t.db.url,
    `INSERT INTO agents (hostname, client_id, site_id, plat, monitoring_type, status, operating_system, version, last_seen, cpu_model, total_ram, disks, patches_pending, wmi_detail, public_ip, local_ip, logged_in_username)
     VALUES ($1, $2, $3, $4, $5, $6, 'Windows 11 Pro 23H2', '2.8.0', now(), 'Intel Core i7', 15.8, '[{"device":"C:","free":"120.5 GB","total":"475.8 GB","percent":75}]', $7, '{"make_model":"Dell Latitude 7440"}', '203.0.113.7', '10.0.0.12', 'alice')
     RETURNING id`,
    [a.hostname, a.clientId, a.siteId, a.plat ?? 'windows', a.monitoringType ?? 'workstation', a.status ?? 'online', a.patchesPending ?? 0],
  );
  return row.id as number;
}
