import { Client } from 'pg';
import WebSocket from 'ws';
import { CheckResults } from '../../apps/api/src/rmm/automation/checks/check-results';
import { HISTORY_KEEP } from '../../apps/api/src/rmm/automation/checks/checks.repository';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const ADMIN = 'checks-live-admin-key-0123456789abcdef';
type Message = { type: string; id?: string } & Record<string, any>;

/** A raw WebSocket on the agent channel with a registered agent's credentials: it says exactly what a test wants. */
class RawAgent {
  readonly messages: Message[] = [];
  closed = false;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(data.toString()) as Message));
    ws.on('close', () => (this.closed = true));
  }

  static connect(url: string, agentId: string, secret: string): Promise<RawAgent> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/agent/v1/ws`, { headers: { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` } });
      const agent = new RawAgent(ws);
      ws.once('open', () => resolve(agent));
      ws.once('error', reject);
    });
  }

  /** The next checks.sync not yet taken. */
  async nextSync(): Promise<Message> {
    const found = await until('a checks.sync', async () => {
      const i = this.messages.findIndex((m) => m.type === 'checks.sync');
      return i >= 0 ? this.messages.splice(i, 1)[0] : undefined;
    });
    return found;
  }

  /** Waits until a checks.sync carrying this check has come (the server counts results only for checks it gave the agent). */
  async given(checkId: number): Promise<void> {
    await until(`check ${checkId} in a checks.sync`, async () => this.messages.some((m) => m.type === 'checks.sync' && m.checks.some((c: { id: number }) => c.id === checkId)));
  }

  result(checkId: unknown, status: unknown, moreInfo?: unknown): void {
    this.ws.send(JSON.stringify({ type: 'check.result', checkId, status, moreInfo }));
  }
}

/** The server side of checks over the agent channel: checks.sync, check.result, history, and one alert under concurrency. */
describe('checks, live (agent channel)', () => {
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  const admin = { 'X-API-KEY': ADMIN };
  const open: RawAgent[] = [];

  beforeAll(async () => {
    // Bursts of results here test storage, history and one alert under concurrency: not spaced as a check's own
    // results are (max(run_interval / 2, 5 s): test/hardening/agent-floods.e2e-spec.ts holds that).
    t = await startTestApp(
      { RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000' },
      { overrides: { checkResultSpacing: false } },
    );
    tenant = await createTenant(t, 'Checks Live Ltd', 'HQ');
  });
  afterEach(() => {
    for (const a of open.splice(0)) a.ws.terminate();
  });
  afterAll(async () => {
    await t?.close();
  });

  const enroll = async (hostname: string): Promise<{ agentId: string; secret: string }> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname, plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    return { agentId: r.body.agent_id, secret: r.body.agent_secret };
  };
  const connect = async (hostname: string): Promise<{ agentId: string; agent: RawAgent }> => {
    const { agentId, secret } = await enroll(hostname);
    const agent = await RawAgent.connect(t.url, agentId, secret);
    open.push(agent);
    return { agentId, agent };
  };
  const createCheck = async (body: Record<string, unknown>): Promise<Record<string, any>> => {
    const res = await t.http.post('/api/v3/checks/').set(admin).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const getCheck = async (id: number): Promise<Record<string, any>> => (await t.http.get(`/api/v3/checks/${id}/`).set(admin)).body;
  const historyCount = async (id: number): Promise<number> => Number((await sql<{ n: string }>(t.db.url, `SELECT count(*) n FROM check_results WHERE check_id = $1`, [id]))[0].n);

  it('takes run_interval (5..86400, default 120) and severity (default warning) on create and change, and refuses bad values', async () => {
    const { agentId } = await enroll('live-rest-01');
    const plain = await createCheck({ agent: agentId, check_type: 'memory', settings: { threshold_percent: 90 } });
    expect(plain).toMatchObject({ run_interval: 120, severity: 'warning', status: 'pending', fail_count: 0 });
    const set = await createCheck({ agent: agentId, check_type: 'memory', settings: { threshold_percent: 90 }, run_interval: 5, severity: 'info' });
    expect(set).toMatchObject({ run_interval: 5, severity: 'info' });
    for (const [body, field] of [
      [{ run_interval: 4 }, 'run_interval'],
      [{ run_interval: 86_401 }, 'run_interval'],
      [{ run_interval: 60.5 }, 'run_interval'],
      [{ run_interval: '60' }, 'run_interval'],
      [{ severity: 'critical' }, 'severity'],
    ] as const) {
      const res = await t.http.post('/api/v3/checks/').set(admin).send({ agent: agentId, check_type: 'memory', settings: { threshold_percent: 90 }, ...body });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      const patch = await t.http.patch(`/api/v3/checks/${set.id}/`).set(admin).send(body);
      expect(patch.status).toBe(400);
    }
    const put = await t.http.put(`/api/v3/checks/${set.id}/`).set(admin).send({ run_interval: 86_400, severity: 'error' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ run_interval: 86_400, severity: 'error', settings: { threshold_percent: 90 } });
    expect(await getCheck(set.id)).toMatchObject({ run_interval: 86_400, severity: 'error' });
  });

  it('sends the agent its whole list at connect and after every change, a script check with its script', async () => {
    const { agentId, agent } = await connect('live-sync-01');
    expect(await agent.nextSync()).toEqual({ type: 'checks.sync', id: expect.any(String), checks: [] });
    const disk = await createCheck({ agent: agentId, check_type: 'diskspace', settings: { drive: '/', threshold_percent: 10 }, run_interval: 60 });
    expect((await agent.nextSync()).checks).toEqual([{ id: disk.id, checkType: 'diskspace', name: disk.name, runInterval: 60, settings: { drive: '/', threshold_percent: 10 } }]);
    const s = await t.http.post('/api/v3/scripts/').set(admin).send({ name: 'live-sync-script', shell: 'bash', body: 'exit 0', args: ['-v'], default_timeout: 45 });
    const scr = await createCheck({ agent: agentId, check_type: 'script', settings: { script: s.body.id, timeout: 20 } });
    expect((await agent.nextSync()).checks).toEqual([
      expect.objectContaining({ id: disk.id }),
      { id: scr.id, checkType: 'script', name: scr.name, runInterval: 120, settings: {}, script: { shell: 'bash', body: 'exit 0', args: ['-v'], timeoutSeconds: 20 } },
    ]);
    await t.http.patch(`/api/v3/scripts/${s.body.id}/`).set(admin).send({ body: 'exit 1' }).expect(200);
    expect((await agent.nextSync()).checks[1].script).toEqual({ shell: 'bash', body: 'exit 1', args: ['-v'], timeoutSeconds: 20 });
    await t.http.patch(`/api/v3/checks/${disk.id}/`).set(admin).send({ settings: { drive: '/', threshold_percent: 5 } }).expect(200);
    expect((await agent.nextSync()).checks[0].settings).toEqual({ drive: '/', threshold_percent: 5 });
    await t.http.delete(`/api/v3/checks/${disk.id}/`).set(admin).expect(204);
    expect((await agent.nextSync()).checks.map((c: { id: number }) => c.id)).toEqual([scr.id]);
    // another agent's checks are never sent here
    const { agentId: other } = await enroll('live-sync-02');
    await createCheck({ agent: other, check_type: 'ping', settings: { target: '10.0.0.1' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(agent.messages.filter((m) => m.type === 'checks.sync')).toEqual([]);
  });

  it('takes a disabled check out of the agent’s list, resolves its open alert, drops late results for it, and sends it again once enabled', async () => {
    const { agentId, agent } = await connect('live-disable-01');
    await agent.nextSync();
    const check = await createCheck({ agent: agentId, check_type: 'memory', settings: { threshold_percent: 90 }, severity: 'error' });
    expect(check.enabled).toBe(true);
    await agent.given(check.id);
    agent.messages.splice(0);
    agent.result(check.id, 'failing', 'memory 97 %');
    await until('the alert', async () => (await sql(t.db.url, `SELECT id FROM alerts WHERE check_id = $1 AND NOT resolved`, [check.id])).length === 1);

    const off = await t.http.patch(`/api/v3/checks/${check.id}/`).set(admin).send({ enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ enabled: false, status: 'failing' });
    expect((await agent.nextSync()).checks).toEqual([]);
    expect(await sql(t.db.url, `SELECT resolved, resolved_by FROM alerts WHERE check_id = $1`, [check.id])).toEqual([{ resolved: true, resolved_by: 'system' }]);
    // A result the agent sent before it got its new list is not stored.
    const before = await historyCount(check.id);
    agent.result(check.id, 'passing', 'memory 40 %');
    await new Promise((r) => setTimeout(r, 300));
    expect([await historyCount(check.id), (await getCheck(check.id)).more_info]).toEqual([before, 'memory 97 %']);
    expect((await t.http.patch(`/api/v3/checks/${check.id}/`).set(admin).send({ enabled: 'no' })).status).toBe(400);

    await t.http.patch(`/api/v3/checks/${check.id}/`).set(admin).send({ enabled: true }).expect(200);
    expect((await agent.nextSync()).checks.map((c: { id: number }) => c.id)).toEqual([check.id]);
  });

  it('opens exactly one check_failure alert under many concurrent failing results, counts each, and announces check.status before alert.created', async () => {
    const { agentId, agent } = await connect('live-race-01');
    await agent.nextSync();
    const check = await createCheck({ agent: agentId, check_type: 'diskspace', settings: { drive: '/', threshold_percent: 50 }, fails_b4_alert: 3, severity: 'error' });
    await agent.given(check.id);
    const seen: string[] = [];
    const bus = t.server.app.get(RmmEvents);
    const offs = [
      bus.on('check.status', (e) => e.checkId === check.id && seen.push(`check.status ${e.previousStatus}->${e.status}`)),
      bus.on('alert.created', (e) => e.alert.check === check.id && seen.push('alert.created')),
    ];
    try {
      for (let i = 0; i < 60; i++) agent.result(check.id, 'failing', `/: 1.0 GB free of 100.0 GB (1.0 %), threshold 50 % #${i}`);
      await until('60 results', async () => (await historyCount(check.id)) === 60);
      const c = await getCheck(check.id);
      expect(c).toMatchObject({ status: 'failing', fail_count: 60 });
      const alerts = await sql(t.db.url, `SELECT severity, resolved FROM alerts WHERE check_id = $1`, [check.id]);
      expect(alerts).toEqual([{ severity: 'error', resolved: false }]);
      await until('the events', async () => seen.length === 61);
      // two results kept the previous status (fails_b4_alert 3), the third turned it failing, then the alert
      const count = (what: string) => seen.filter((s) => s === what).length;
      expect([count('check.status pending->pending'), count('check.status pending->failing'), count('check.status failing->failing'), count('alert.created')]).toEqual([2, 1, 57, 1]);
      expect(seen.indexOf('alert.created')).toBeGreaterThan(seen.indexOf('check.status pending->failing'));

      // the database alone keeps it at one (another instance stores results too): results of one check stored
      // at the same moment, past this instance's queue, are applied one after the other under the row lock
      const raced = await createCheck({ agent: agentId, check_type: 'memory', settings: { threshold_percent: 90 }, fails_b4_alert: 2 });
      const results = t.server.app.get(CheckResults);
      const stored = await Promise.all(Array.from({ length: 30 }, (_, i) => results.record(Number(agentId), { checkId: raced.id, status: 'failing', moreInfo: `#${i}` })));
      expect(stored.map((r) => r!.failCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
      expect(stored.filter((r) => r!.previousStatus === 'pending' && r!.status === 'failing')).toHaveLength(1);
      expect(await getCheck(raced.id)).toMatchObject({ status: 'failing', fail_count: 30 });
      expect(await sql(t.db.url, `SELECT count(*)::int n FROM alerts WHERE check_id = $1 AND NOT resolved`, [raced.id])).toEqual([{ n: 1 }]);

      // passing resets the count and resolves the alert by itself; acknowledging in between keeps it open
      const [alert] = (await t.http.get('/api/v3/alerts/').query({ agent: agentId }).set(admin)).body;
      expect((await t.http.post(`/api/v3/alerts/${alert.id}/acknowledge/`).set(admin)).status).toBeLessThan(300);
      agent.result(check.id, 'failing', 'still');
      await until('one more', async () => (await historyCount(check.id)) === 61);
      expect((await t.http.get(`/api/v3/alerts/${alert.id}/`).set(admin)).body).toMatchObject({ resolved: false, acknowledged: true });
      // the result and its alert's resolution are one transaction: whoever hears check.status (or reads the
      // check as passing) finds the alert resolved already, never a passing check with its alert still open
      const reader = new Client({ connectionString: t.db.url }); // connected beforehand: it reads at once
      await reader.connect();
      const openWhenHeard: Array<Promise<number>> = [];
      const offPassing = bus.on('check.status', (e) => {
        if (e.checkId === check.id && e.status === 'passing')
          {openWhenHeard.push(reader.query<{ n: number }>(`SELECT count(*)::int n FROM alerts WHERE id = $1 AND NOT resolved`, [alert.id]).then((r) => r.rows[0].n));}
      });
      agent.result(check.id, 'passing', 'fine');
      await until('check.status passing heard', async () => openWhenHeard.length === 1);
      offPassing();
      expect(await Promise.all(openWhenHeard)).toEqual([0]);
      await reader.end();
      const passing = await until('passing', async () => {
        const now = await getCheck(check.id);
        return now.status === 'passing' ? now : undefined;
      });
      expect(passing).toMatchObject({ fail_count: 0, more_info: 'fine' });
      expect((await t.http.get(`/api/v3/alerts/${alert.id}/`).set(admin)).body).toMatchObject({ resolved: true, resolved_by: 'system' });
      // a pending result neither counts nor resolves
      agent.result(check.id, 'pending', 'not supported on this platform');
      await until('pending', async () => (await getCheck(check.id)).status === 'pending');
      expect(await getCheck(check.id)).toMatchObject({ fail_count: 0, more_info: 'not supported on this platform' });
    } finally {
      offs.forEach((off) => off());
    }
  });

  it('ignores results that are not valid or not this agent’s, keeps the connection, and cuts long more_info', async () => {
    const { agentId, agent } = await connect('live-bad-01');
    const { agentId: otherId } = await enroll('live-bad-02');
    const mine = await createCheck({ agent: agentId, check_type: 'memory', settings: { threshold_percent: 90 } });
    const theirs = await createCheck({ agent: otherId, check_type: 'memory', settings: { threshold_percent: 90 } });
    await agent.given(mine.id);
    agent.result(theirs.id, 'failing', 'not mine');
    agent.result(999_999, 'failing', 'no such check');
    agent.result(mine.id, 'broken', 'bad status');
    agent.result(String(mine.id), 'failing', 'id as a string');
    agent.result(mine.id, 'failing', { not: 'text' });
    agent.result(-1, 'failing');
    agent.result(2 ** 40, 'failing');
    agent.ws.send('{"type":"check.result"}');
    agent.result(mine.id, 'failing', `${'x'.repeat(10_000)}\u0000`);
    await until('the valid result', async () => (await historyCount(mine.id)) === 1);
    const c = await getCheck(mine.id);
    expect(c.status).toBe('failing');
    expect(c.more_info).toHaveLength(4_000);
    expect(c.more_info.endsWith('…')).toBe(true);
    expect(await getCheck(theirs.id)).toMatchObject({ status: 'pending', fail_count: 0, more_info: null, last_run: null });
    expect(await historyCount(theirs.id)).toBe(0);
    expect(agent.closed).toBe(false);
    // the messages that are not check.results of the protocol are answered with an error saying why; a valid result
    // for a check that is not its own (or no longer exists) is ignored without a word
    expect(agent.messages.filter((m) => m.type === 'error').map((m) => m.message)).toEqual([
      'invalid check.result: /status must be one of passing, failing, pending',
      'invalid check.result: /checkId must be integer',
      'invalid check.result: /moreInfo must be string',
      'invalid check.result: /checkId must be >= 1',
      'invalid check.result: /checkId must be <= 2147483647',
      'invalid check.result: /checkId is required',
    ]);
    expect((await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status).toBe('online');
  });

  it(`keeps the newest ${HISTORY_KEEP} results of a check, newest first, paged with X-Total-Count; 404 for an unknown check`, async () => {
    const { agentId, agent } = await connect('live-history-01');
    const check = await createCheck({ agent: agentId, check_type: 'memory', settings: { threshold_percent: 90 } });
    await agent.given(check.id);
    const n = HISTORY_KEEP + 20;
    // The first HISTORY_KEEP - 10 results as a long-running agent left them (written directly: 490 round trips
    // prove nothing more and took a minute on a loaded machine), then 30 through the channel: the last 20 of them
    // each push the oldest out.
    const seeded = HISTORY_KEEP - 10;
    await sql(
      t.db.url,
      `INSERT INTO check_results (check_id, status, more_info, created_at)
       SELECT $1, CASE WHEN i % 2 = 0 THEN 'passing' ELSE 'failing' END, '#' || i, now() - interval '1 hour' + i * interval '1 second'
         FROM generate_series(0, $2 - 1) AS i ORDER BY i`,
      [check.id, seeded],
    );
    let stored = 0;
    const off = t.server.app.get(RmmEvents).on('check.status', (e) => e.checkId === check.id && stored++);
    try {
      for (let i = seeded; i < n; i++) agent.result(check.id, i % 2 === 0 ? 'passing' : 'failing', `#${i}`);
      await until(`the results up to ${n - 1}`, async () => stored === n - seeded, 30_000);
    } finally {
      off();
    }
    expect(await historyCount(check.id)).toBe(HISTORY_KEEP);
    const all = await t.http.get(`/api/v3/checks/${check.id}/history/`).set(admin);
    expect(all.status).toBe(200);
    expect(all.headers['x-total-count']).toBeUndefined();
    expect(all.body).toHaveLength(HISTORY_KEEP);
    const latest = await getCheck(check.id);
    expect(all.body[0]).toEqual({ id: expect.any(Number), status: 'failing', more_info: `#${n - 1}`, created_at: latest.last_run });
    expect(all.body[HISTORY_KEEP - 1].more_info).toBe(`#${n - HISTORY_KEEP}`);
    const ids = all.body.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => y - x));
    const page = await t.http.get(`/api/v3/checks/${check.id}/history/?limit=2&offset=1`).set(admin);
    expect(page.headers['x-total-count']).toBe(String(HISTORY_KEEP));
    expect(page.body).toEqual(all.body.slice(1, 3));
    expect(page.body.map((r: { more_info: string }) => r.more_info)).toEqual([`#${n - 2}`, `#${n - 3}`]);
    expect((await t.http.get('/api/v3/checks/999999/history/').set(admin)).status).toBe(404);
    expect((await t.http.get(`/api/v3/checks/${check.id}/history/?limit=0`).set(admin)).status).toBe(400);
    expect((await t.http.get('/api/v3/checks/abc/history/').set(admin)).status).toBe(404);
  });
});
