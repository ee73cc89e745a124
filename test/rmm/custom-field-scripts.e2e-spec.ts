import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditService } from '../../apps/api/src/rmm/access/audit/audit.service';
import { RmmEventName, RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { AGENT_JS, AgentProcess, run } from '../utils/processes';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * Custom fields in scripts (docs/custom-fields.md): placeholders filled in by the server when it sends a run, to a
 * real agent process (dist/agent/rmm-agent.js); a secret's value reaches the agent but no stored run, audit entry or
 * server log line; unknown fields refused; collector runs writing a field.
 */
describe('custom fields in scripts (a real agent process)', () => {
  const ADMIN = 'custom-field-scripts-admin-key-0123456789';
  const SECRET = 'Tr0ub4dor-and-3-horses';
  const HOSTNAME = 'cf-scripts-e2e-01';
  let t: TestApp;
  let work: string;
  let agentId: string;
  let agent: AgentProcess;
  const admin = { 'X-API-KEY': ADMIN };
  const env = (): NodeJS.ProcessEnv => ({ ...process.env, RMM_AGENT_HOSTNAME: HOSTNAME });
  const define = async (body: Record<string, unknown>) => expect((await t.http.post('/api/v3/custom-fields/').set(admin).send(body)).status).toBe(201);
  const script = async (name: string, body: string, args: string[] = []): Promise<number> => {
    const res = await t.http.post('/api/v3/scripts/').set(admin).send({ name, shell: 'bash', body, args });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const runscript = (body: Record<string, unknown>) => t.http.post(`/api/v3/agents/${agentId}/runscript/`).set(admin).send(body);

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' });
    work = mkdtempSync(join(tmpdir(), 'rmm-cf-scripts-'));
    const prefix = join(work, 'agent');
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    const reg = await run([AGENT_JS, 'register', '--server', t.url, '--token', d.body.uuid, '--prefix', prefix], env(), 20_000);
    expect(reg.code).toBe(0);
    agentId = reg.stdout.trim();
    agent = new AgentProcess(prefix, env());
    agent.start();
    await until(`agent online\n${agent.output}`, async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'online');
    await define({ name: 'site_code', label: 'Site code', scope: 'agent', type: 'text' });
    await define({ name: 'admin_password', label: 'Admin password', scope: 'agent', type: 'secret' });
    await define({ name: 'cores', label: 'Cores', scope: 'agent', type: 'number' });
    await define({ name: 'region', label: 'Region', scope: 'client', type: 'select', options: ['eu', 'us'], default: 'eu' });
    await define({ name: 'floor', label: 'Floor', scope: 'site', type: 'number' });
    const put = await t.http.put(`/api/v3/agents/${agentId}/custom-fields/`).set(admin).send({ site_code: 'NYC-1', admin_password: SECRET });
    expect(put.status).toBe(200);
    expect((await t.http.put(`/api/v3/clients/${client}/sites/${site}/custom-fields/`).set(admin).send({ floor: 3 })).status).toBe(200);
  });
  afterAll(async () => {
    await agent?.stop();
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('fills {{agent.site_code}}, names, defaults and site fields into the arguments the agent receives (default and per-run args)', async () => {
    const id = await script('cf-echo', 'for a in "$@"; do echo "[$a]"; done', ['{{agent.site_code}}', '{{agent.hostname}}']);
    const byDefault = await runscript({ script: id });
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.stdout).toBe(`[NYC-1]\n[${HOSTNAME}]\n`);
    const [names] = await sql<{ client: string; site: string }>(t.db.url, `SELECT c.name AS client, s.name AS site FROM agents a JOIN clients c ON c.id = a.client_id JOIN sites s ON s.id = a.site_id WHERE a.id = $1`, [agentId]);
    const perRun = await runscript({ script: id, args: ['code={{ agent.site_code }}', '{{client.name}}/{{site.name}}', '{{client.region}}', 'floor {{site.floor}}', '{{agent.cores}}', '{{not.a_field}}'] });
    expect(perRun.body.stdout).toBe(`[code=NYC-1]\n[${names.client}/${names.site}]\n[eu]\n[floor 3]\n[]\n[{{not.a_field}}]\n`);
    // the stored run keeps the arguments as given
    const stored = await t.http.get(`/api/v3/agents/${agentId}/runs/${perRun.body.id}/`).set(admin);
    expect(stored.body.args[0]).toBe('code={{ agent.site_code }}');
  });

  it('fills a queued run in when it is sent: the value as it is then', async () => {
    const id = await script('cf-queued', 'echo "[$1]"', ['{{agent.site_code}}']);
    await agent.stop();
    await until('agent offline', async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status !== 'online');
    const queued = await runscript({ script: id, queue: true });
    expect(queued.body).toEqual({ id: expect.any(Number), status: 'queued' });
    expect((await t.http.put(`/api/v3/agents/${agentId}/custom-fields/`).set(admin).send({ site_code: 'NYC-2' })).status).toBe(200);
    agent.start();
    const ran = await until(
      `the queued run's end\n${agent.output}`,
      async () => {
        const r = (await t.http.get(`/api/v3/agents/${agentId}/runs/${queued.body.id}/`).set(admin)).body;
        return r.status === 'finished' ? r : undefined;
      },
      30_000,
    );
    expect(ran).toEqual(expect.objectContaining({ stdout: '[NYC-2]\n', args: ['{{agent.site_code}}'] }));
    expect((await t.http.put(`/api/v3/agents/${agentId}/custom-fields/`).set(admin).send({ site_code: 'NYC-1' })).status).toBe(200);
    await until('agent online', async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'online');
  });

  it('refuses an unknown field with 400 before anything is stored or sent', async () => {
    const id = await script('cf-unknown', 'echo ran');
    const [{ n: before }] = await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM script_runs`);
    const res = await runscript({ script: id, args: ['{{client.foo}}'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'unknown field client.foo' });
    const queued = await runscript({ script: id, args: ['{{agent.nope}}'], queue: true });
    expect(queued.body).toEqual({ detail: 'unknown field agent.nope' });
    const [{ n: after }] = await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM script_runs`);
    expect(after).toBe(before);
  });

  it("sends a secret's value to the agent, and keeps it out of every stored run, audit entry and server log line", async () => {
    const out = join(work, 'secret.txt');
    const id = await script('cf-secret', `printf '%s' "$1" > '${out}'; echo done`, ['{{agent.admin_password}}']);
    const announced: string[] = [];
    const bus = t.server.app.get(RmmEvents);
    const offs = (['script.started', 'script.output', 'script.finished', 'agent.updated'] as RmmEventName[]).map((name) => bus.on(name, (e: unknown) => void announced.push(`${name} ${JSON.stringify(e)}`)));
    const res = await runscript({ script: id });
    expect(res.status).toBe(200);
    expect(res.body.stdout).toBe('done\n');
    expect(readFileSync(out, 'utf8')).toBe(SECRET);
    const forgotten = await runscript({ script: id, args: ['--pw={{agent.admin_password}}'], output: 'forget' });
    expect(forgotten.status).toBe(202);
    await until('the forgotten run ends', async () => (await t.http.get(`/api/v3/agents/${agentId}/runs/${forgotten.body.id}/`).set(admin)).body.status === 'finished');
    expect(readFileSync(out, 'utf8')).toBe(`--pw=${SECRET}`);
    await t.server.app.get(AuditService).flush();
    const runs = await sql<{ args: string[] }>(t.db.url, `SELECT args FROM script_runs WHERE script_id = $1 ORDER BY id`, [id]);
    expect(runs.map((r) => r.args)).toEqual([['{{agent.admin_password}}'], ['--pw={{agent.admin_password}}']]);
    expect(await sql(t.db.url, `SELECT id FROM script_runs s WHERE row_to_json(s)::text LIKE '%' || $1 || '%'`, [SECRET])).toEqual([]);
    expect(await sql(t.db.url, `SELECT id FROM audit_log a WHERE row_to_json(a)::text LIKE '%' || $1 || '%'`, [SECRET])).toEqual([]);
    const [{ n: audited }] = await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM audit_log WHERE action = 'PUT /api/v3/agents/{agentId}/custom-fields/'`);
    expect(audited).toBeGreaterThan(0);
    expect(t.logs.join('\n')).not.toContain(SECRET);
    expect(t.logs.length).toBeGreaterThan(0);
    offs.forEach((off) => off());
    expect(announced.filter((e) => e.startsWith('script.finished'))).toHaveLength(2);
    expect(announced.join('\n')).not.toContain(SECRET);
  });

  it("a collector run writes the agent's field with its trimmed stdout", async () => {
    const id = await script('cf-cores', 'echo "  16  "');
    const res = await runscript({ script: id, output: 'collector', custom_field: 'cores' });
    expect(res.status).toBe(200);
    expect(res.body.stdout).toBe('  16  \n');
    expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.custom_fields).toEqual(expect.objectContaining({ cores: 16, site_code: 'NYC-1', admin_password: '********' }));
    const text = await script('cf-code', 'echo LDN-2');
    expect((await runscript({ script: text, output: 'collector', custom_field: 'site_code' })).status).toBe(200);
    expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.custom_fields.site_code).toBe('LDN-2');
  });

  it('a collector value the field refuses fails the run with the reason, and leaves the value', async () => {
    const id = await script('cf-bad-cores', 'echo sixteen');
    const res = await runscript({ script: id, output: 'collector', custom_field: 'cores' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: 'custom field cores: must be a finite number' });
    const [stored] = (await t.http.get(`/api/v3/agents/${agentId}/runs/?script=${id}`).set(admin)).body;
    expect(stored).toEqual(expect.objectContaining({ status: 'failed', error: 'custom field cores: must be a finite number', stdout: 'sixteen\n' }));
    expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.custom_fields.cores).toBe(16);
    expect((await runscript({ script: id, output: 'collector', custom_field: 'nope' })).body).toEqual({ detail: 'validation error', errors: [{ field: 'custom_field', message: 'no agent field nope' }] });
    expect((await runscript({ script: id, output: 'wait', custom_field: 'cores' })).status).toBe(400);
  });

  it('a task whose arguments name an unknown field fails its run with that reason, never sending it', async () => {
    const id = await script('cf-task', 'echo ran', ['{{client.foo}}']);
    const task = await t.http.post('/api/v3/tasks/').set(admin).send({ name: 'cf task', agent: agentId, script: id, schedule: '*/2 * * * * *' });
    expect(task.status).toBe(201);
    const runOf = async () => (await t.http.get(`/api/v3/tasks/${task.body.id}/runs/`).set(admin)).body.find((r: { status: string }) => r.status !== 'running');
    const ended = await until('the task run ends', runOf, 20_000);
    expect(ended).toEqual(expect.objectContaining({ status: 'failed', error: 'unknown field client.foo' }));
    const [sent] = await sql<{ status: string; error: string }>(t.db.url, `SELECT status, error FROM script_runs WHERE script_id = $1 ORDER BY id LIMIT 1`, [id]);
    expect(sent).toEqual({ status: 'failed', error: 'unknown field client.foo' });
    expect((await t.http.patch(`/api/v3/tasks/${task.body.id}/`).set(admin).send({ enabled: false })).status).toBe(200);
  });
});
