import { FixedClock } from '../../apps/api/src/common/clock';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { createKey, createTenant, insertAgent } from '../utils/rmm-fixtures';

/** Checks (per-type settings), tasks (cron, next_run_at) and alerts (active → acknowledged → resolved). */
describe('/api/v3 checks, tasks and alerts', () => {
  const ADMIN = 'admin-key-for-cta-tests-0123456789';
  const START = new Date('2026-01-01T00:01:00Z');
  const clock = new FixedClock(START);
  let t: TestApp;
  let agent: number;
  let other: number;
  let scriptId: number;
  const admin = () => ({ 'X-API-KEY': ADMIN });

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN }, { clock });
    const tenant = await createTenant(t, 'Acme');
    agent = await insertAgent(t, { hostname: 'ACME-WS-01', ...tenant });
    other = await insertAgent(t, { hostname: 'ACME-WS-02', ...tenant });
    scriptId = (await t.http.post('/api/v3/scripts/').set(admin()).send({ name: 'Health', shell: 'bash', body: 'exit 0' })).body.id;
  });
  afterAll(async () => {
    await t?.close();
  });
  // Tests move the clock; each starts from the same time, whatever ran before it.
  beforeEach(() => clock.set(START));

  describe('checks', () => {
    const create = (body: Record<string, unknown>) => t.http.post('/api/v3/checks/').set(admin()).send({ agent: String(agent), ...body });

    it('creates each of the seven types with its settings, named after them by default', async () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ['diskspace', { drive: 'C:', threshold_percent: 10 }, 'Disk space C: below 10% free'],
        ['ping', { target: '8.8.8.8' }, 'Ping 8.8.8.8'],
        ['cpuload', { threshold_percent: 90 }, 'CPU load above 90%'],
        ['memory', { threshold_percent: 85 }, 'Memory use above 85%'],
        ['winsvc', { service_name: 'Spooler' }, 'Service Spooler'],
        ['script', { script: 0, args: ['--quick'], timeout: 30 }, `Script ${0}`],
        ['eventlog', { log_name: 'System', event_id: 7036, event_type: 'error' }, 'Event log System event 7036'],
      ];
      for (const [type, settings, name] of cases) {
        const s = type === 'script' ? { ...settings, script: scriptId } : settings;
        const res = await create({ check_type: type, settings: s, fails_b4_alert: 2 });
        expect(res.status).toBe(201);
        expect(res.body).toEqual({
          id: expect.any(Number),
          agent: String(agent),
          check_type: type,
          name: type === 'script' ? `Script ${scriptId}` : name,
          status: 'pending',
          more_info: null,
          last_run: null,
          settings: s,
          fails_b4_alert: 2,
          fail_count: 0,
          run_interval: 120,
          severity: 'warning',
          enabled: true,
        });
      }
      const [row] = await sql(t.db.url, `SELECT script_id FROM checks WHERE check_type = 'script'`);
      expect(row.script_id).toBe(scriptId);
    });

    it.each([
      ['diskspace', {}, 'settings.drive'],
      ['diskspace', { drive: 'C:', threshold_percent: 100 }, 'settings.threshold_percent'],
      ['diskspace', { drive: 'not a drive', threshold_percent: 10 }, 'settings.drive'],
      ['ping', { target: 'two words' }, 'settings.target'],
      ['cpuload', { threshold_percent: '90' }, 'settings.threshold_percent'],
      ['memory', { threshold_percent: 85, drive: 'C:' }, 'settings.drive'],
      ['winsvc', { service_name: '' }, 'settings.service_name'],
      ['script', { script: 424242 }, 'settings.script'],
      ['script', { script: 1, timeout: 600 }, 'settings.timeout'],
      ['eventlog', { log_name: 'Kernel' }, 'settings.log_name'],
      ['eventlog', { log_name: 'System', event_type: 'fatal' }, 'settings.event_type'],
    ])('refuses a %s check with settings %j (400 naming %s)', async (type, settings, field) => {
      const res = await create({ check_type: type, settings });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('validation error');
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('refuses an unknown type, an unknown agent, and settings that are not an object', async () => {
      expect((await create({ check_type: 'smart', settings: {} })).body.errors[0].field).toBe('check_type');
      const noAgent = await t.http.post('/api/v3/checks/').set(admin()).send({ agent: '999999', check_type: 'ping', settings: { target: 'x' } });
      expect(noAgent.body.errors).toEqual([{ field: 'agent', message: 'no agent 999999' }]);
      expect((await t.http.post('/api/v3/checks/').set(admin()).send({ agent: 'abc', check_type: 'ping', settings: { target: 'x' } })).body.errors[0].field).toBe('agent');
      expect((await create({ check_type: 'ping', settings: 'x' })).body.errors[0].field).toBe('settings');
    });

    it("lists checks by id, one agent's with ?agent=, and pages", async () => {
      const numeric = await t.http.post('/api/v3/checks').set(admin()).send({ agent: other, check_type: 'ping', settings: { target: 'gw' } });
      expect(numeric.status).toBe(201); // an agent id sent as a number works too
      const all = (await t.http.get('/api/v3/checks/').set(admin())).body;
      expect(all.map((c: { id: number }) => c.id)).toEqual([...all.map((c: { id: number }) => c.id)].sort((a, b) => a - b));
      const mine = (await t.http.get(`/api/v3/checks/?agent=${other}`).set(admin())).body;
      expect(mine).toEqual([expect.objectContaining({ id: numeric.body.id, agent: String(other), check_type: 'ping' })]);
      expect((await t.http.get('/api/v3/checks/?agent=abc').set(admin())).status).toBe(400);
      expect((await t.http.get('/api/v3/checks/?agent=424242').set(admin())).body).toEqual([]);
      const page = await t.http.get('/api/v3/checks/?limit=2').set(admin());
      expect(page.body).toEqual(all.slice(0, 2));
      expect(page.headers['x-total-count']).toBe(String(all.length));
    });

    it('renames a check named after its settings when they change; a name the operator gave stays', async () => {
      const generated = (await create({ check_type: 'cpuload', settings: { threshold_percent: 95 } })).body;
      expect(generated.name).toBe('CPU load above 95%');
      const changed = await t.http.patch(`/api/v3/checks/${generated.id}/`).set(admin()).send({ settings: { threshold_percent: 100 } });
      expect(changed.body).toMatchObject({ name: 'CPU load above 100%', settings: { threshold_percent: 100 } });
      expect((await t.http.get(`/api/v3/checks/${generated.id}/`).set(admin())).body.name).toBe('CPU load above 100%');
      // other changes leave it as it is
      expect((await t.http.patch(`/api/v3/checks/${generated.id}/`).set(admin()).send({ severity: 'error' })).body.name).toBe('CPU load above 100%');

      const named = (await create({ check_type: 'cpuload', name: 'Build server CPU', settings: { threshold_percent: 95 } })).body;
      expect((await t.http.patch(`/api/v3/checks/${named.id}/`).set(admin()).send({ settings: { threshold_percent: 99 } })).body.name).toBe('Build server CPU');
      // a new name and new settings in one change: the name given wins
      expect((await t.http.patch(`/api/v3/checks/${generated.id}/`).set(admin()).send({ name: 'Mine', settings: { threshold_percent: 90 } })).body.name).toBe('Mine');

      const script = (await create({ check_type: 'script', settings: { script: scriptId } })).body;
      const other = (await t.http.post('/api/v3/scripts/').set(admin()).send({ name: 'Health 2', shell: 'bash', body: 'exit 0' })).body.id;
      expect((await t.http.patch(`/api/v3/checks/${script.id}/`).set(admin()).send({ settings: { script: other } })).body.name).toBe(`Script ${other}`);
      for (const id of [generated.id, named.id, script.id]) expect((await t.http.delete(`/api/v3/checks/${id}/`).set(admin())).status).toBe(204);
    });

    it('updates name, settings (checked against the type), threshold, run_interval and severity; deletes', async () => {
      const c = (await create({ check_type: 'memory', settings: { threshold_percent: 80 }, run_interval: 30, severity: 'info' })).body;
      expect(c).toMatchObject({ run_interval: 30, severity: 'info' });
      const res = await t.http.patch(`/api/v3/checks/${c.id}/`).set(admin()).send({ name: 'RAM', settings: { threshold_percent: 95 }, fails_b4_alert: 3, run_interval: 600, severity: 'error' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: 'RAM', settings: { threshold_percent: 95 }, fails_b4_alert: 3, run_interval: 600, severity: 'error' });
      expect((await t.http.patch(`/api/v3/checks/${c.id}/`).set(admin()).send({ run_interval: 3 })).status).toBe(400);
      expect((await t.http.patch(`/api/v3/checks/${c.id}/`).set(admin()).send({ severity: 'fatal' })).status).toBe(400);
      const bad = await t.http.put(`/api/v3/checks/${c.id}/`).set(admin()).send({ settings: { target: 'x' } });
      expect(bad.status).toBe(400);
      expect((await t.http.delete(`/api/v3/checks/${c.id}`).set(admin())).status).toBe(204);
      expect((await t.http.get(`/api/v3/checks/${c.id}/`).set(admin())).status).toBe(404);
    });

    it('needs checks:read and checks:write', async () => {
      const reader = await createKey(t, ['checks:read']);
      expect((await t.http.get('/api/v3/checks/').set('X-API-KEY', reader)).status).toBe(200);
      expect((await t.http.post('/api/v3/checks/').set('X-API-KEY', reader).send({})).status).toBe(403);
    });
  });

  describe('tasks', () => {
    it('creates a task with next_run_at from its cron schedule (UTC, from the clock)', async () => {
      const res = await t.http.post('/api/v3/tasks/').set(admin()).send({ name: 'Every five', agent: String(agent), script: scriptId, schedule: '*/5 * * * *', enabled: true });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        name: 'Every five',
        agent: String(agent),
        script: scriptId,
        schedule: '*/5 * * * *',
        enabled: true,
        queue_if_offline: false,
        skip_in_maintenance: false,
        next_run_at: '2026-01-01T00:05:00.000Z',
        last_run_at: null,
        last_retcode: null,
        created_at: expect.any(String),
      });
      const list = await t.http.get('/api/v3/tasks').set(admin());
      expect(list.body).toContainEqual(res.body);
      // Gone again: this file moves the clock, and a due task would fire (agent_offline, a task_failure alert).
      expect((await t.http.delete(`/api/v3/tasks/${res.body.id}/`).set(admin())).status).toBe(204);
    });

    it('accepts a six-field schedule (seconds first), its next_run_at on the second', async () => {
      const res = await t.http.post('/api/v3/tasks/').set(admin()).send({ name: 'Every two seconds', agent: String(agent), script: scriptId, schedule: '*/2 * * * * *', enabled: false });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ schedule: '*/2 * * * * *', enabled: false, next_run_at: null });
      const on = await t.http.patch(`/api/v3/tasks/${res.body.id}/`).set(admin()).send({ enabled: true, schedule: '30 * * * * *' });
      expect(on.body).toMatchObject({ enabled: true, schedule: '30 * * * * *', next_run_at: '2026-01-01T00:01:30.000Z' });
      const runs = await t.http.get(`/api/v3/tasks/${res.body.id}/runs/`).set(admin());
      expect([runs.status, runs.body]).toEqual([200, []]);
      expect((await t.http.delete(`/api/v3/tasks/${res.body.id}/`).set(admin())).status).toBe(204);
      expect((await t.http.get(`/api/v3/tasks/${res.body.id}/runs/`).set(admin())).status).toBe(404);
    });

    it('keeps next_run_at null while disabled and recomputes it when enabled or rescheduled', async () => {
      const task = (await t.http.post('/api/v3/tasks/').set(admin()).send({ name: 'Nightly', agent, script: scriptId, schedule: '0 3 * * *', enabled: false })).body;
      expect(task.next_run_at).toBeNull();
      clock.set(new Date('2026-01-01T04:00:00Z'));
      try {
        const on = await t.http.patch(`/api/v3/tasks/${task.id}/`).set(admin()).send({ enabled: true });
        expect(on.body).toMatchObject({ enabled: true, next_run_at: '2026-01-02T03:00:00.000Z' });
        const moved = await t.http.put(`/api/v3/tasks/${task.id}`).set(admin()).send({ schedule: '30 6 * * 1' });
        expect(moved.body).toMatchObject({ schedule: '30 6 * * 1', next_run_at: '2026-01-05T06:30:00.000Z' }); // the next Monday
      } finally {
        clock.set(new Date('2026-01-01T00:01:00Z'));
      }
      expect((await t.http.delete(`/api/v3/tasks/${task.id}/`).set(admin())).status).toBe(204);
      expect((await t.http.get(`/api/v3/tasks/${task.id}/`).set(admin())).status).toBe(404);
    });

    it.each([
      ['* * * *', 'schedule'],
      ['0 0 * * * * *', 'schedule'],
      ['60 * * * * *', 'schedule'],
      ['61 * * * *', 'schedule'],
      ['every day', 'schedule'],
    ])('refuses the schedule %j (400 naming schedule)', async (schedule, field) => {
      const res = await t.http.post('/api/v3/tasks/').set(admin()).send({ name: 'x', agent: String(agent), script: scriptId, schedule });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });

    it('refuses an unknown agent or script, and bad types', async () => {
      const res = await t.http.post('/api/v3/tasks/').set(admin()).send({ name: 'x', agent: '999999', script: 424242, schedule: '* * * * *' });
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['agent', 'script']);
      const types = await t.http.post('/api/v3/tasks/').set(admin()).send({ name: 'x', agent: String(agent), script: scriptId, schedule: '* * * * *', enabled: 'yes' });
      expect(types.body.errors.map((e: { field: string }) => e.field)).toEqual(['enabled']);
    });

    it('needs tasks:read and tasks:write', async () => {
      const reader = await createKey(t, ['tasks:read']);
      expect((await t.http.get('/api/v3/tasks/').set('X-API-KEY', reader)).status).toBe(200);
      expect((await t.http.post('/api/v3/tasks/').set('X-API-KEY', reader).send({})).status).toBe(403);
    });
  });

  describe('alerts', () => {
    let diskAlert: number;
    let overdue: number;
    beforeAll(async () => {
      const rows = await sql(
        t.db.url,
        `INSERT INTO alerts (agent_id, alert_type, severity, message, snoozed) VALUES
           ($1, 'check_failure', 'warning', 'Disk C: below 10% free', false),
           ($1, 'agent_overdue', 'error', 'ACME-WS-01 has not checked in for 10 minutes', false),
           ($2, 'task_failure', 'info', 'Nightly cleanup exited 1', true)
         RETURNING id`,
        [agent, other],
      );
      [diskAlert, overdue] = rows.map((r) => r.id as number);
    });

    it('lists active alerts with the spec fields', async () => {
      const res = await t.http.get('/api/v3/alerts/').set(admin());
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(3);
      expect(res.body[0]).toEqual({
        id: diskAlert,
        alert_type: 'check_failure',
        agent: String(agent),
        severity: 'warning',
        message: 'Disk C: below 10% free',
        created_at: expect.any(String),
        snoozed: false,
        resolved: false,
        acknowledged: false,
        acknowledged_at: null,
        acknowledged_by: null,
        resolved_at: null,
        resolved_by: null,
        check: null,
        task: null,
        flapping: false,
      });
    });

    it('filters by agent, severity, alert_type and snoozed; refuses bad values', async () => {
      const ids = async (q: string) => (await t.http.get(`/api/v3/alerts?${q}`).set(admin())).body.map((a: { id: number }) => a.id);
      expect(await ids(`agent=${agent}`)).toEqual([diskAlert, overdue]);
      expect(await ids('severity=error')).toEqual([overdue]);
      expect(await ids('alert_type=check_failure')).toEqual([diskAlert]);
      expect((await ids('snoozed=true')).length).toBe(1);
      for (const [q, field] of [['severity=critical', 'severity'], ['alert_type=boom', 'alert_type'], ['resolved=maybe', 'resolved'], ['agent=x', 'agent']]) {
        const res = await t.http.get(`/api/v3/alerts/?${q}`).set(admin());
        expect(res.status).toBe(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
    });

    it('acknowledges (seen, still active: who and when, first one kept), then resolves (gone from the active list)', async () => {
      // An alert of this test's own: the others' alerts stay active, whatever the order.
      const [{ id: ownAlert }] = await sql<{ id: number }>(
        t.db.url,
        `INSERT INTO alerts (agent_id, alert_type, severity, message) VALUES ($1, 'check_failure', 'warning', 'Disk D: below 5% free') RETURNING id`,
        [agent],
      );
      const ops = await createKey(t, ['alerts:read', 'alerts:write'], 'noc-dashboard');
      const ack = await t.http.post(`/api/v3/alerts/${ownAlert}/acknowledge/`).set('X-API-KEY', ops);
      expect(ack.status).toBe(200);
      expect(ack.body).toMatchObject({ id: ownAlert, acknowledged: true, acknowledged_by: 'noc-dashboard', acknowledged_at: '2026-01-01T00:01:00.000Z', resolved: false });
      const again = await t.http.post(`/api/v3/alerts/${ownAlert}/acknowledge`).set(admin());
      expect(again.body.acknowledged_by).toBe('noc-dashboard');
      expect((await t.http.get('/api/v3/alerts/').set(admin())).body.map((a: { id: number }) => a.id)).toContain(ownAlert);

      const res = await t.http.post(`/api/v3/alerts/${ownAlert}/resolve/`).set('X-API-KEY', ops);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ resolved: true, resolved_by: 'noc-dashboard', resolved_at: '2026-01-01T00:01:00.000Z' });
      expect((await t.http.get('/api/v3/alerts/').set(admin())).body.map((a: { id: number }) => a.id)).not.toContain(ownAlert);
      expect((await t.http.get('/api/v3/alerts/?resolved=true').set(admin())).body.map((a: { id: number }) => a.id)).toEqual([ownAlert]);
      expect((await t.http.post(`/api/v3/alerts/${ownAlert}/resolve/`).set(admin())).body.resolved_by).toBe('noc-dashboard');
    });

    it('answers 404 for an unknown alert and needs alerts:write to act', async () => {
      expect((await t.http.post('/api/v3/alerts/999999/acknowledge/').set(admin())).body).toEqual({ detail: 'Not found' });
      expect((await t.http.post('/api/v3/alerts/abc/resolve/').set(admin())).status).toBe(404);
      const reader = await createKey(t, ['alerts:read']);
      expect((await t.http.get(`/api/v3/alerts/${overdue}/`).set('X-API-KEY', reader)).status).toBe(200);
      expect((await t.http.post(`/api/v3/alerts/${overdue}/resolve/`).set('X-API-KEY', reader)).status).toBe(403);
    });
  });
});
