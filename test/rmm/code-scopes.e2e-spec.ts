import { Client } from 'pg';
import WebSocket from 'ws';
import type { ApiKeyScope } from '@app/entities';
import { createKey, createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const ADMIN = 'code-scopes-admin-key-0123456789abcdef';
/** In every body a refused request tries to make an agent run: no message to the agent may ever carry it. */
const EVIL = 'id > /tmp/PWNED';
type Message = { type: string; id?: string } & Record<string, any>;

/** A raw WebSocket on the agent channel with a registered agent's credentials: it records everything the server sends. */
class RawAgent {
  readonly messages: Message[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(data.toString()) as Message));
  }

  static connect(url: string, agentId: string, secret: string): Promise<RawAgent> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/agent/v1/ws`, { headers: { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` } });
      const agent = new RawAgent(ws);
      ws.once('open', () => resolve(agent));
      ws.once('error', reject);
    });
  }

  /** What the server sent from message `from` on (its hello aside). */
  since(from: number): Message[] {
    return this.messages.slice(from).filter((m) => m.type !== 'hello');
  }

  /** The first message from `from` on that `match` accepts. */
  waitFor(what: string, from: number, match: (m: Message) => boolean): Promise<Message> {
    return until(what, async () => this.since(from).find(match));
  }
}

const syncHas = (m: Message, pred: (c: Record<string, any>) => boolean): boolean => m.type === 'checks.sync' && (m.checks as Record<string, any>[]).some(pred);

/**
 * Issue 18, finding 2: code ran on agents without `scripts:run`. Every request that makes code run on an agent
 * now needs scripts:run besides its own scope: runscript; creating or changing a script check; creating or
 * changing a task; changing body, shell or args of a script a check or task uses. Refused: 403
 * {detail: 'permission denied'}, nothing written (read back with an admin key), nothing sent to the agent.
 */
describe('scripts:run for every request that makes code run on an agent', () => {
  let t: TestApp;
  let agentId: string;
  let agent: RawAgent;
  const admin = { 'X-API-KEY': ADMIN };
  const keyWith = (...scopes: ApiKeyScope[]) => createKey(t, scopes);
  const denied = { detail: 'permission denied' };

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' });
    const tenant = await createTenant(t, 'Code Scopes Ltd', 'HQ');
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'SCOPES-01', plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    agentId = r.body.agent_id;
    agent = await RawAgent.connect(t.url, agentId, r.body.agent_secret);
    await agent.waitFor('the first checks.sync', 0, (m) => m.type === 'checks.sync');
  });
  afterAll(async () => {
    agent?.ws.terminate();
    await t?.close();
  });

  const newScript = async (name: string, body = 'exit 0'): Promise<number> => {
    const res = await t.http.post('/api/v3/scripts/').set(admin).send({ name, shell: 'bash', body, args: ['-q'] });
    expect(res.status).toBe(201);
    return res.body.id;
  };
  const newScriptCheck = async (script: number): Promise<Record<string, any>> => {
    const from = agent.messages.length;
    const res = await t.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, check_type: 'script', settings: { script } });
    expect(res.status).toBe(201);
    await agent.waitFor('the new check on the agent', from, (m) => syncHas(m, (c) => c.id === res.body.id));
    return res.body;
  };
  const getAs = async (path: string): Promise<unknown> => {
    const res = await t.http.get(path).set(admin);
    expect(res.status).toBe(200);
    return res.body;
  };

  /**
   * Nothing reached the agent from message `from` on: an admin change (a new ping check) makes the server send
   * the agent its list once, and that list is the only message since `from`, read after the marker was written.
   */
  const expectNothingSentSince = async (from: number): Promise<void> => {
    const marker = await t.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, check_type: 'ping', settings: { target: '127.0.0.1' } });
    expect(marker.status).toBe(201);
    await agent.waitFor('the marker check on the agent', from, (m) => syncHas(m, (c) => c.id === marker.body.id));
    const sent = agent.since(from);
    expect(sent.map((m) => m.type)).toEqual(['checks.sync']);
    expect(JSON.stringify(sent)).not.toContain(EVIL);
  };

  it('declares scripts:run in the OpenAPI document on exactly the routes that make code run', async () => {
    const doc = (await t.http.get('/docs/openapi.json')).body as { paths: Record<string, Record<string, Record<string, string>>> };
    const also: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (op['x-also-requires-scope']) {
          expect([method, path, op['x-also-requires-scope']]).toEqual([method, path, 'scripts:run']);
          expect(op.summary).toContain('scripts:run');
          also.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(also.sort()).toEqual(
      [
        'POST /api/v3/checks', 'PUT /api/v3/checks/{id}', 'PATCH /api/v3/checks/{id}',
        'POST /api/v3/tasks', 'PUT /api/v3/tasks/{id}', 'PATCH /api/v3/tasks/{id}',
        'PUT /api/v3/scripts/{id}', 'PATCH /api/v3/scripts/{id}',
        // (issue #31) a policy carrying script checks or tasks; an override changing a script check's settings
        'POST /api/v3/policies', 'PATCH /api/v3/policies/{id}', 'PUT /api/v3/agents/{agentId}/policy-overrides',
      ].sort(),
    );
    expect(doc.paths['/api/v3/agents/{agentId}/runscript'].post['x-required-scope']).toBe('scripts:run');
    expect(doc.paths['/api/v3/tasks'].post['x-also-requires-scope-when']).toBeUndefined(); // always
    expect(doc.paths['/api/v3/checks'].post['x-also-requires-scope-when']).toBe('for a check of type script');
  });

  describe('runscript', () => {
    it('refuses a key with every other scope (403, no run, nothing sent); runs with scripts:run alone', async () => {
      const script = await newScript('Runscript target', EVIL);
      const everyOther = await keyWith('agents:read', 'agents:write', 'scripts:read', 'scripts:write', 'checks:read', 'checks:write', 'tasks:read', 'tasks:write');
      const from = agent.messages.length;
      const refused = await t.http.post(`/api/v3/agents/${agentId}/runscript/`).set('X-API-KEY', everyOther).send({ script, output: 'forget' });
      expect([refused.status, refused.body]).toEqual([403, denied]);
      expect(await getAs(`/api/v3/agents/${agentId}/runs/`)).toEqual([]);

      const accepted = await t.http.post(`/api/v3/agents/${agentId}/runscript/`).set('X-API-KEY', await keyWith('scripts:run')).send({ script, output: 'forget' });
      expect([accepted.status, accepted.body]).toEqual([202, { id: expect.any(Number), status: 'running' }]);
      const run = await agent.waitFor('script.run', from, (m) => m.type === 'script.run');
      expect(agent.since(from).filter((m) => m.type === 'script.run')).toEqual([run]);
      expect(run.runId).toBe(accepted.body.id); // the first script.run the agent got is the accepted one
      agent.ws.send(JSON.stringify({ type: 'result', id: run.id, ok: true, result: { retcode: 0, stdout: '', stderr: '', executionTime: 0.01, timedOut: false } }));
      await until('the run finished', async () => ((await getAs(`/api/v3/agents/${agentId}/runs/${accepted.body.id}/`)) as { status: string }).status === 'finished');
      expect((await getAs(`/api/v3/agents/${agentId}/runs/`)) as unknown[]).toHaveLength(1);
    });
  });

  describe('checks', () => {
    it('refuses to create a script check without scripts:run (403, nothing written, nothing sent); creates it with', async () => {
      const script = await newScript('Check target', EVIL);
      const writer = await keyWith('checks:read', 'checks:write', 'scripts:read');
      const from = agent.messages.length;
      const refused = await t.http.post('/api/v3/checks/').set('X-API-KEY', writer).send({ agent: agentId, check_type: 'script', settings: { script, args: ['-x'] } });
      expect([refused.status, refused.body]).toEqual([403, denied]);
      expect((await sql(t.db.url, `SELECT count(*)::int AS n FROM checks WHERE script_id = $1`, [script]))[0].n).toBe(0);
      await expectNothingSentSince(from);

      const runner = await keyWith('checks:write', 'scripts:run');
      const from2 = agent.messages.length;
      const created = await t.http.post('/api/v3/checks/').set('X-API-KEY', runner).send({ agent: agentId, check_type: 'script', settings: { script, args: ['-x'] } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ check_type: 'script', settings: { script, args: ['-x'] } });
      const sync = await agent.waitFor('the script check on the agent', from2, (m) => syncHas(m, (c) => c.id === created.body.id));
      expect((sync.checks as Record<string, any>[]).find((c) => c.id === created.body.id)!.script).toMatchObject({ body: EVIL, args: ['-x'] });
      await t.http.delete(`/api/v3/checks/${created.body.id}/`).set(admin).expect(204);
    });

    it('refuses a script check of an unknown script or with bad settings 403 too: the scope comes first', async () => {
      const writer = await keyWith('checks:write');
      const res = await t.http.post('/api/v3/checks/').set('X-API-KEY', writer).send({ agent: agentId, check_type: 'script', settings: { script: 424242, timeout: 9999 } });
      expect([res.status, res.body]).toEqual([403, denied]);
    });

    it('refuses every change of a script check without scripts:run, a rename or another script included; allows it with', async () => {
      const script = await newScript('Changed check target');
      const other = await newScript('Other script', EVIL);
      const check = await newScriptCheck(script);
      const writer = await keyWith('checks:read', 'checks:write');
      const from = agent.messages.length;
      const attempts: Array<['put' | 'patch', Record<string, unknown>]> = [
        ['patch', { settings: { script: other } }],
        ['put', { settings: { script: other, args: [EVIL] } }],
        ['patch', { settings: { script, args: [EVIL], timeout: 300 } }],
        ['patch', { name: 'renamed' }],
        ['put', { run_interval: 5 }],
        ['patch', { severity: 'error', fails_b4_alert: 5 }],
      ];
      for (const [method, body] of attempts) {
        const res = await t.http[method](`/api/v3/checks/${check.id}/`).set('X-API-KEY', writer).send(body);
        expect([method, body, res.status, res.body]).toEqual([method, body, 403, denied]);
      }
      expect(await getAs(`/api/v3/checks/${check.id}/`)).toEqual(check);
      await expectNothingSentSince(from);

      const runner = await keyWith('checks:write', 'scripts:run');
      const from2 = agent.messages.length;
      const changed = await t.http.put(`/api/v3/checks/${check.id}/`).set('X-API-KEY', runner).send({ name: 'Other', settings: { script: other } });
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ name: 'Other', settings: { script: other } });
      await agent.waitFor('the changed check on the agent', from2, (m) => syncHas(m, (c) => c.id === check.id && c.script.body === EVIL));
      expect((await t.http.patch(`/api/v3/checks/${check.id}/`).set('X-API-KEY', runner).send({ run_interval: 600 })).status).toBe(200);
      await t.http.delete(`/api/v3/checks/${check.id}/`).set(admin).expect(204);
    });

    it('needs only checks:write for checks of other types, and to delete any check', async () => {
      const writer = await keyWith('checks:write');
      const ping = await t.http.post('/api/v3/checks/').set('X-API-KEY', writer).send({ agent: agentId, check_type: 'ping', settings: { target: '10.0.0.1' } });
      expect(ping.status).toBe(201);
      const changed = await t.http.patch(`/api/v3/checks/${ping.body.id}/`).set('X-API-KEY', writer).send({ name: 'Gateway', settings: { target: '10.0.0.2' } });
      expect([changed.status, changed.body.settings]).toEqual([200, { target: '10.0.0.2' }]);
      expect((await t.http.put(`/api/v3/checks/${ping.body.id}/`).set('X-API-KEY', writer).send({ run_interval: 60 })).status).toBe(200);
      expect((await t.http.delete(`/api/v3/checks/${ping.body.id}/`).set('X-API-KEY', writer)).status).toBe(204);

      const scriptCheck = await newScriptCheck(await newScript('Deleted by a writer'));
      expect((await t.http.delete(`/api/v3/checks/${scriptCheck.id}/`).set('X-API-KEY', writer)).status).toBe(204);
      expect((await t.http.get(`/api/v3/checks/${scriptCheck.id}/`).set(admin)).status).toBe(404);
    });
  });

  describe('tasks', () => {
    it('refuses to create a task without scripts:run (403 before the body is even read, nothing written); creates it with', async () => {
      const script = await newScript('Task target', EVIL);
      const writer = await keyWith('tasks:read', 'tasks:write', 'scripts:read');
      const body = { name: 'Every second', agent: agentId, script, schedule: '* * * * * *' };
      const refused = await t.http.post('/api/v3/tasks/').set('X-API-KEY', writer).send(body);
      expect([refused.status, refused.body]).toEqual([403, denied]);
      const invalid = await t.http.post('/api/v3/tasks/').set('X-API-KEY', writer).send({ schedule: 'nonsense' });
      expect([invalid.status, invalid.body]).toEqual([403, denied]);
      expect(await getAs(`/api/v3/tasks/?agent=${agentId}`)).toEqual([]);

      const runner = await keyWith('tasks:write', 'scripts:run');
      const created = await t.http.post('/api/v3/tasks/').set('X-API-KEY', runner).send({ ...body, schedule: '0 3 1 1 *', enabled: false });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ name: 'Every second', script, schedule: '0 3 1 1 *', enabled: false });
      await t.http.delete(`/api/v3/tasks/${created.body.id}/`).set(admin).expect(204);
    });

    it('refuses every change of a task without scripts:run (nothing written); allows it with; deleting needs only tasks:write', async () => {
      const script = await newScript('Scheduled');
      const other = await newScript('Scheduled other', EVIL);
      const created = await t.http.post('/api/v3/tasks/').set(admin).send({ name: 'Yearly', agent: agentId, script, schedule: '0 3 1 1 *', enabled: false });
      expect(created.status).toBe(201);
      const task = created.body;
      const writer = await keyWith('tasks:read', 'tasks:write');
      const attempts: Array<['put' | 'patch', Record<string, unknown>]> = [
        ['patch', { enabled: true, schedule: '* * * * * *' }],
        ['put', { script: other }],
        ['patch', { name: 'renamed' }],
      ];
      for (const [method, body] of attempts) {
        const res = await t.http[method](`/api/v3/tasks/${task.id}/`).set('X-API-KEY', writer).send(body);
        expect([method, body, res.status, res.body]).toEqual([method, body, 403, denied]);
      }
      expect(await getAs(`/api/v3/tasks/${task.id}/`)).toEqual(task);

      const runner = await keyWith('tasks:write', 'scripts:run');
      const changed = await t.http.patch(`/api/v3/tasks/${task.id}/`).set('X-API-KEY', runner).send({ name: 'Yearly other', script: other });
      expect([changed.status, changed.body.name, changed.body.script]).toEqual([200, 'Yearly other', other]);
      expect((await t.http.put(`/api/v3/tasks/${task.id}/`).set('X-API-KEY', runner).send({ schedule: '0 4 1 1 *' })).status).toBe(200);

      expect((await t.http.delete(`/api/v3/tasks/${task.id}/`).set('X-API-KEY', writer)).status).toBe(204);
      expect((await t.http.get(`/api/v3/tasks/${task.id}/`).set(admin)).status).toBe(404);
    });
  });

  describe('scripts', () => {
    it('refuses body, shell or args of a script a check uses without scripts:run, even unchanged (403, nothing written, nothing sent)', async () => {
      const script = await newScript('Used by a check');
      await newScriptCheck(script);
      const before = await getAs(`/api/v3/scripts/${script}/`);
      const writer = await keyWith('scripts:read', 'scripts:write');
      const from = agent.messages.length;
      const attempts: Array<['put' | 'patch', Record<string, unknown>]> = [
        ['patch', { body: EVIL }],
        ['put', { name: 'Innocent', body: EVIL }],
        ['patch', { shell: 'python' }],
        ['put', { args: [EVIL] }],
        ['patch', { body: 'exit 0' }], // the same body: a field given is a change (docs/decisions.md)
        ['patch', { args: ['-q'], description: 'same args' }],
      ];
      for (const [method, body] of attempts) {
        const res = await t.http[method](`/api/v3/scripts/${script}/`).set('X-API-KEY', writer).send(body);
        expect([method, body, res.status, res.body]).toEqual([method, body, 403, denied]);
      }
      expect(await getAs(`/api/v3/scripts/${script}/`)).toEqual(before);
      await expectNothingSentSince(from);
    });

    it('refuses the same for a script only a task uses', async () => {
      const script = await newScript('Used by a task');
      expect((await t.http.post('/api/v3/tasks/').set(admin).send({ name: 'Uses it', agent: agentId, script, schedule: '0 3 1 1 *', enabled: false })).status).toBe(201);
      const before = await getAs(`/api/v3/scripts/${script}/`);
      const res = await t.http.put(`/api/v3/scripts/${script}/`).set('X-API-KEY', await keyWith('scripts:write', 'tasks:write')).send({ body: EVIL });
      expect([res.status, res.body]).toEqual([403, denied]);
      expect(await getAs(`/api/v3/scripts/${script}/`)).toEqual(before);
    });

    it('refuses it too while a task that uses the script is being created (the change waits for it, then is refused)', async () => {
      const script = await newScript('Being put to use');
      const before = await getAs(`/api/v3/scripts/${script}/`);
      const writer = await keyWith('scripts:write');
      const creating = new Client({ connectionString: t.db.url });
      await creating.connect();
      try {
        await creating.query('BEGIN');
        await creating.query(`INSERT INTO tasks (agent_id, script_id, name, schedule, enabled) VALUES ($1, $2, 'racing', '0 3 1 1 *', false)`, [agentId, script]);
        const change = t.http.patch(`/api/v3/scripts/${script}/`).set('X-API-KEY', writer).send({ body: EVIL }).then((r) => r);
        await until('the change waiting on the script row', async () => {
          const [row] = await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FROM scripts%'`);
          return row.n > 0;
        });
        await creating.query('COMMIT');
        const res = await change;
        expect([res.status, res.body]).toEqual([403, denied]);
      } finally {
        await creating.end();
      }
      expect(await getAs(`/api/v3/scripts/${script}/`)).toEqual(before);
    });

    it('changes the code of a used script with scripts:run, and the agent gets it', async () => {
      const script = await newScript('Used, changed by a runner');
      const check = await newScriptCheck(script);
      const from = agent.messages.length;
      const res = await t.http.patch(`/api/v3/scripts/${script}/`).set('X-API-KEY', await keyWith('scripts:write', 'scripts:run')).send({ body: EVIL, shell: 'python', args: [] });
      expect([res.status, res.body.body, res.body.shell]).toEqual([200, EVIL, 'python']);
      await agent.waitFor('the new body on the agent', from, (m) => syncHas(m, (c) => c.id === check.id && c.script.body === EVIL));
    });

    it('needs only scripts:write to rename or describe a used script, and for any change of an unused one', async () => {
      const used = await newScript('Used, renamed');
      await newScriptCheck(used);
      const writer = await keyWith('scripts:write');
      const renamed = await t.http.patch(`/api/v3/scripts/${used}/`).set('X-API-KEY', writer).send({ name: 'Used, renamed again', description: 'cleans up', default_timeout: 30 });
      expect([renamed.status, renamed.body]).toEqual([200, expect.objectContaining({ name: 'Used, renamed again', description: 'cleans up', default_timeout: 30, body: 'exit 0' })]);
      expect((await t.http.put(`/api/v3/scripts/${used}/`).set('X-API-KEY', writer).send({ description: null })).status).toBe(200);

      const unused = await newScript('Unused');
      const changed = await t.http.put(`/api/v3/scripts/${unused}/`).set('X-API-KEY', writer).send({ body: 'echo new', shell: 'python', args: ['-v'] });
      expect([changed.status, changed.body]).toEqual([200, expect.objectContaining({ body: 'echo new', shell: 'python', args: ['-v'] })]);
    });
  });

  it('lets an admin key do all of it', async () => {
    const adminKey = await keyWith('admin');
    const script = await newScript('Admin target');
    const check = await t.http.post('/api/v3/checks/').set('X-API-KEY', adminKey).send({ agent: agentId, check_type: 'script', settings: { script } });
    expect(check.status).toBe(201);
    expect((await t.http.patch(`/api/v3/checks/${check.body.id}/`).set('X-API-KEY', adminKey).send({ name: 'Admin check' })).status).toBe(200);
    expect((await t.http.patch(`/api/v3/scripts/${script}/`).set('X-API-KEY', adminKey).send({ body: 'exit 1' })).status).toBe(200);
    const task = await t.http.post('/api/v3/tasks/').set('X-API-KEY', adminKey).send({ name: 'Admin task', agent: agentId, script, schedule: '0 3 1 1 *', enabled: false });
    expect(task.status).toBe(201);
    expect((await t.http.patch(`/api/v3/tasks/${task.body.id}/`).set('X-API-KEY', adminKey).send({ name: 'Admin task 2' })).status).toBe(200);
  });
});
