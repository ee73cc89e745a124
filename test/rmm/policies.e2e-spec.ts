import { API_KEY_SCOPES, ApiKeyScope } from '@app/entities';
import { ApiKeysService } from '../../apps/api/src/rmm/access/api-keys/api-keys.service';
import { AuditService } from '../../apps/api/src/rmm/access/audit/audit.service';
import { RmmEvents } from '../../apps/api/src/rmm/common/bus/rmm-events';
import { CONSOLE, createOperator, signIn } from '../utils/operators';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

jest.setTimeout(60_000);

const TECHNICIAN: ApiKeyScope[] = API_KEY_SCOPES.filter((s) => s !== 'admin');

/** Automation policies over HTTP (issue #31, docs/policies.md): CRUD, matching counts, preview, effective policy, access. */
describe('/api/v3/policies', () => {
  const ADMIN = 'admin-key-for-policies-tests-0123456789';
  const admin = () => ({ 'X-API-KEY': ADMIN });
  let t: TestApp;
  let acme: { clientId: number; siteId: number };
  let beta: { clientId: number; siteId: number };
  let a1: number; // Acme, windows server, finance
  let a2: number; // Acme, linux workstation, finance + vip
  let a3: number; // Acme, windows workstation, no tags
  let b1: number; // Beta, darwin workstation, finance
  let script: number;
  const changed: Array<number | null> = [];

  const post = (body: Record<string, unknown>) => t.http.post('/api/v3/policies/').set(admin()).send(body);
  const agentsOf = async (targets: Record<string, unknown>, exclude: Record<string, unknown> = {}) =>
    (await t.http.post('/api/v3/policies/preview/').set(admin()).send({ targets, exclude })).body.agents as number;

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    acme = await createTenant(t, 'Acme', 'HQ');
    beta = await createTenant(t, 'Beta', 'Main');
    a1 = await insertAgent(t, { hostname: 'ACME-SRV-01', ...acme, plat: 'windows', monitoringType: 'server' });
    a2 = await insertAgent(t, { hostname: 'ACME-LNX-02', ...acme, plat: 'linux' });
    a3 = await insertAgent(t, { hostname: 'ACME-WS-03', ...acme });
    b1 = await insertAgent(t, { hostname: 'BETA-MAC-01', ...beta, plat: 'darwin' });
    await sql(t.db.url, `UPDATE agents SET tags = $2 WHERE id = $1`, [a1, ['finance']]);
    await sql(t.db.url, `UPDATE agents SET tags = $2 WHERE id = $1`, [a2, ['finance', 'vip']]);
    await sql(t.db.url, `UPDATE agents SET tags = $2 WHERE id = $1`, [b1, ['finance']]);
    script = (await t.http.post('/api/v3/scripts/').set(admin()).send({ name: 'Cleanup', shell: 'bash', body: 'exit 0' })).body.id;
    t.server.app.get(RmmEvents).on('policies.changed', ({ policyId }) => changed.push(policyId));
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('CRUD', () => {
    it('creates a policy with its items and keys, answering how many agents it matches; lists, gets, patches and deletes it', async () => {
      const created = await post({
        name: 'Finance baseline',
        description: 'disk and cleanup',
        targets: { tags_any: ['Finance'] },
        checks: [
          { check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 10 } },
          { check_type: 'script', settings: { script, args: ['--quick'] }, run_interval: 300, fails_b4_alert: 2, alert_severity: 'error', name: 'Quick' },
        ],
        tasks: [{ name: 'Nightly cleanup', script, schedule: '0 3  * * *', args: ['-v'], skip_in_maintenance: true }],
        maintenance_windows: [{ schedule: '0 22 * * 6', duration_minutes: 120, timezone: 'Europe/Berlin' }],
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'Finance baseline',
        description: 'disk and cleanup',
        enabled: true,
        enforced: false,
        priority: 500,
        targets: { tags_any: ['finance'] },
        exclude: {},
        checks: [
          { id: expect.any(Number), key: 'diskspace:C:', check_type: 'diskspace', name: 'Disk space C: below 10% free', settings: { drive: 'C:', threshold_percent: 10 }, run_interval: 120, fails_b4_alert: 1, alert_severity: 'warning' },
          { id: expect.any(Number), key: `script:${script}:["--quick"]`, check_type: 'script', name: 'Quick', settings: { script, args: ['--quick'] }, run_interval: 300, fails_b4_alert: 2, alert_severity: 'error' },
        ],
        tasks: [
          { id: expect.any(Number), key: `task:${script}:["-v"]:0 3 * * *`, name: 'Nightly cleanup', script, args: ['-v'], schedule: '0 3 * * *', timeout: null, queue_if_offline: false, skip_in_maintenance: true },
        ],
        maintenance_windows: [{ schedule: '0 22 * * 6', duration_minutes: 120, timezone: 'Europe/Berlin' }],
        agents: 3,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const id = created.body.id as number;
      expect(changed).toContain(id);
      expect(await sql(t.db.url, 'SELECT key, position FROM policy_checks WHERE policy_id = $1 ORDER BY position', [id])).toEqual([
        { key: 'diskspace:C:', position: 0 },
        { key: `script:${script}:["--quick"]`, position: 1 },
      ]);

      const listed = await t.http.get('/api/v3/policies/').set(admin());
      expect(listed.status).toBe(200);
      expect(listed.body.map((p: { id: number; agents: number }) => [p.id, p.agents])).toEqual([[id, 3]]);
      const paged = await t.http.get('/api/v3/policies/?limit=1&offset=0').set(admin());
      expect(paged.headers['x-total-count']).toBe('1');
      expect((await t.http.get(`/api/v3/policies/${id}/`).set(admin())).body).toEqual({ ...created.body, agents: 3 });

      // checks replace the list: the disk check's key stays (its id too), the script check goes, a ping comes.
      const diskId = created.body.checks[0].id;
      const patched = await t.http.patch(`/api/v3/policies/${id}/`).set(admin()).send({
        priority: 10,
        checks: [
          { check_type: 'ping', settings: { target: '10.0.0.1' } },
          { check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 20 } },
        ],
      });
      expect(patched.status).toBe(200);
      expect(patched.body.priority).toBe(10);
      expect(patched.body.description).toBe('disk and cleanup');
      expect(patched.body.tasks).toEqual(created.body.tasks);
      expect(patched.body.checks.map((c: { key: string; id: number }) => [c.key, c.id === diskId])).toEqual([
        ['ping:10.0.0.1', false],
        ['diskspace:C:', true],
      ]);
      expect(patched.body.checks[1].settings).toEqual({ drive: 'C:', threshold_percent: 20 });

      expect((await t.http.delete(`/api/v3/policies/${id}/`).set(admin())).status).toBe(204);
      expect((await t.http.get(`/api/v3/policies/${id}/`).set(admin())).status).toBe(404);
      expect(await sql(t.db.url, 'SELECT count(*)::int AS n FROM policy_checks WHERE policy_id = $1', [id])).toEqual([{ n: 0 }]);
    });

    it('answers 400 naming the field for items per-agent checks and tasks would refuse, unknown references and duplicate keys', async () => {
      const bad = await post({
        name: 'Bad',
        targets: { clients: [999999], tags_any: ['no/slash'] },
        exclude: { agents: ['999999'] },
        checks: [
          { check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 100 } },
          { check_type: 'cpuload', settings: { threshold_percent: 90 } },
          { check_type: 'cpuload', settings: { threshold_percent: 80 } },
          { check_type: 'script', settings: { script: 999999 } },
        ],
        tasks: [{ name: 'x', script: 999999, schedule: 'every day' }, { name: 'y', script, schedule: '* * * * *' }, { name: 'z', script, schedule: '* * * * *' }],
        maintenance_windows: [{ schedule: '0 22 * * 6 *', duration_minutes: 60, timezone: 'Mars/Olympus' }],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toBe('validation error');
      expect(bad.body.errors).toEqual(
        expect.arrayContaining([
          { field: 'targets.tags_any[0]', message: expect.any(String) },
          { field: 'checks[0].settings.threshold_percent', message: 'must be a whole number from 1 to 99' },
          { field: 'checks[2]', message: 'has the same key (cpuload) as checks[1]: one item per key' },
          { field: 'tasks[0].schedule', message: expect.stringContaining('5 fields') },
          { field: 'tasks[2]', message: expect.stringContaining('as tasks[1]') },
          { field: 'maintenance_windows[0].schedule', message: expect.stringContaining('5-field') },
          { field: 'maintenance_windows[0].timezone', message: expect.any(String) },
          { field: 'targets.clients', message: 'no client 999999' },
          { field: 'exclude.agents', message: 'no agent 999999' },
          { field: 'checks[3].settings.script', message: 'no script 999999' },
        ]),
      );
      const dto = await post({ name: 'Bad too', priority: 0, targets: { platforms: ['beos'] } });
      expect(dto.status).toBe(400);
      expect(dto.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['priority', 'targets.platforms']);
      expect((await post({ name: 'Bad window', maintenance_windows: [{ schedule: '0 1 * * *', duration_minutes: 1441, timezone: 'UTC' }] })).status).toBe(400);
      expect(await sql(t.db.url, `SELECT count(*)::int AS n FROM policies WHERE name LIKE 'Bad%'`)).toEqual([{ n: 0 }]);
    });

    it('never answers 500 to odd bodies: nulls, wrong types and out-of-range ids are 400s', async () => {
      const bodies: unknown[] = [
        { name: 'Odd', targets: null },
        { name: 'Odd', targets: [] },
        { name: 'Odd', targets: { clients: ['1'] } },
        { name: 'Odd', targets: { clients: [1e12] } },
        { name: 'Odd', exclude: { agents: ['9999999999'] } },
        { name: 'Odd', exclude: { agents: [42] } },
        { name: 'Odd', checks: [null] },
        { name: 'Odd', checks: {} },
        { name: 'Odd', checks: [{ check_type: 'diskspace', settings: null }] },
        { name: 'Odd', checks: [{ check_type: 'script', settings: { script: '1' } }] },
        { name: 'Odd', checks: [{ check_type: 'diskspace', settings: { drive: 'c:', threshold_percent: 5 } }, { check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 9 } }] },
        { name: 'Odd', tasks: [{ name: 'x', script: 2 ** 40, schedule: '* * * * *' }] },
        { name: 'Odd', tasks: [{ name: 'x', script, schedule: '* * * * *', args: [1] }] },
        { name: 'Odd', maintenance_windows: [{ schedule: '61 * * * *', duration_minutes: 5, timezone: 'UTC' }] },
        { name: 'Odd', maintenance_windows: [null] },
        { name: '   ' },
        { name: null },
        { name: 'Odd', priority: 1001 },
        { name: 'Odd', description: 5 },
      ];
      for (const body of bodies) {
        const res = await post(body as Record<string, unknown>);
        expect([JSON.stringify(body), res.status, res.body.detail]).toEqual([JSON.stringify(body), 400, 'validation error']);
      }
      expect((await t.http.patch('/api/v3/policies/1/').set(admin()).send([1, 2])).status).toBeLessThan(500);
      expect((await t.http.post('/api/v3/policies/preview/').set(admin()).send({ id: 'x' })).status).toBe(400);
      expect(await sql(t.db.url, `SELECT count(*)::int AS n FROM policies WHERE name = 'Odd'`)).toEqual([{ n: 0 }]);
    });

    it('answers 409 for a name taken and past 500 policies', async () => {
      expect((await post({ name: 'Unique' })).status).toBe(201);
      const again = await post({ name: 'Unique' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ detail: 'a policy named "Unique" already exists' });
      const other = (await post({ name: 'Other' })).body.id;
      expect((await t.http.patch(`/api/v3/policies/${other}/`).set(admin()).send({ name: 'Unique' })).status).toBe(409);

      await sql(t.db.url, `INSERT INTO policies (name, enabled) SELECT 'filler ' || g, false FROM generate_series(1, 498) g`);
      const full = await post({ name: 'One too many' });
      expect(full.status).toBe(409);
      expect(full.body).toEqual({ detail: 'at most 500 policies: delete one before creating another' });
      await sql(t.db.url, `DELETE FROM policies WHERE name LIKE 'filler %' OR name IN ('Unique', 'Other')`);
    });
  });

  describe('matching', () => {
    it('counts agents by tags, clients, sites, platforms and monitoring types; any exclusion wins; disabled matches none', async () => {
      expect(await agentsOf({})).toBe(4);
      expect(await agentsOf({ tags_any: ['finance'] })).toBe(3);
      expect(await agentsOf({ tags_all: ['finance', 'VIP'] })).toBe(1);
      expect(await agentsOf({ clients: [acme.clientId] })).toBe(3);
      expect(await agentsOf({ sites: [beta.siteId] })).toBe(1);
      expect(await agentsOf({ platforms: ['windows'] })).toBe(2);
      expect(await agentsOf({ monitoring_types: ['server'] })).toBe(1);
      expect(await agentsOf({ clients: [acme.clientId], tags_any: ['finance'] })).toBe(2);
      expect(await agentsOf({ tags_any: ['finance'] }, { agents: [String(a1)] })).toBe(2);
      expect(await agentsOf({ tags_any: ['finance'] }, { clients: [beta.clientId] })).toBe(2);
      expect(await agentsOf({}, { sites: [acme.siteId] })).toBe(1);
      expect(await agentsOf({}, { tags: ['vip'] })).toBe(3);
      // The counts of the list and of one policy: an excluded agent is taken off only where it would match.
      const ex = await post({ name: 'Excluding', targets: { tags_any: ['finance'] }, exclude: { agents: [String(a1), String(a3)] } });
      expect(ex.body.agents).toBe(2);
      expect(ex.body.exclude).toEqual({ agents: [String(a1), String(a3)] });
      const all = await post({ name: 'All but Beta', exclude: { clients: [beta.clientId], agents: [String(b1)] } });
      expect(all.body.agents).toBe(3);
      const listed = (await t.http.get('/api/v3/policies/').set(admin())).body as Array<{ id: number; agents: number }>;
      expect(listed.filter((p) => [ex.body.id, all.body.id].includes(p.id)).map((p) => p.agents)).toEqual([2, 3]);
      for (const p of [ex.body, all.body]) await t.http.delete(`/api/v3/policies/${p.id}/`).set(admin());
      const off = await post({ name: 'Off', enabled: false });
      expect(off.body.agents).toBe(0);
      await t.http.delete(`/api/v3/policies/${off.body.id}/`).set(admin());
    });

    it('previews a new policy and changes to a saved one, naming the agents added and removed, without saving', async () => {
      const fresh = await t.http.post('/api/v3/policies/preview/').set(admin()).send({ name: 'x', targets: { tags_any: ['finance'] } });
      expect(fresh.status).toBe(200);
      expect(fresh.body).toEqual({
        agents: 3,
        total_added: 3,
        total_removed: 0,
        added: [
          { id: String(a1), hostname: 'ACME-SRV-01' },
          { id: String(a2), hostname: 'ACME-LNX-02' },
          { id: String(b1), hostname: 'BETA-MAC-01' },
        ],
        removed: [],
      });
      const saved = (await post({ name: 'Preview me', targets: { tags_any: ['finance'] } })).body;
      const change = await t.http.post('/api/v3/policies/preview/').set(admin()).send({ id: saved.id, targets: { clients: [acme.clientId] } });
      expect(change.body).toEqual({ agents: 3, total_added: 1, total_removed: 1, added: [{ id: String(a3), hostname: 'ACME-WS-03' }], removed: [{ id: String(b1), hostname: 'BETA-MAC-01' }] });
      expect((await t.http.get(`/api/v3/policies/${saved.id}/`).set(admin())).body.targets).toEqual({ tags_any: ['finance'] });
      const unknown = await t.http.post('/api/v3/policies/preview/').set(admin()).send({ id: 999999 });
      expect([unknown.status, unknown.body]).toEqual([400, { detail: 'validation error', errors: [{ field: 'id', message: 'no policy 999999' }] }]);
      await t.http.delete(`/api/v3/policies/${saved.id}/`).set(admin());
    });
  });

  describe('effective policy', () => {
    it("names the policy and the reason; an enforced policy's check wins over the agent's own by key, which shows shadowed_by", async () => {
      const own = await t.http.post('/api/v3/checks/').set(admin()).send({ agent: String(a1), check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 5 } });
      expect(own.status).toBe(201);
      const soft = (await post({ name: 'Soft disk', targets: { tags_any: ['finance'] }, checks: [{ check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 15 } }, { check_type: 'memory', settings: { threshold_percent: 90 } }] })).body;
      let eff = await t.http.get(`/api/v3/agents/${a1}/effective-policy/`).set(admin());
      expect(eff.status).toBe(200);
      // Not enforced: the agent's own check wins, the policy's is shadowed by it.
      expect(eff.body.checks).toEqual([
        expect.objectContaining({ id: own.body.id, key: 'diskspace:C:', source: { type: 'agent' }, shadowed_by: null, overridden: false, disabled: false, settings: { drive: 'C:', threshold_percent: 5 } }),
        expect.objectContaining({ id: null, key: 'diskspace:C:', source: { type: 'policy', policy: { id: soft.id, name: 'Soft disk' }, enforced: false, reason: 'tag finance' }, shadowed_by: { type: 'agent' } }),
        expect.objectContaining({ key: 'memory', check_type: 'memory', source: expect.objectContaining({ reason: 'tag finance' }), shadowed_by: null }),
      ]);
      expect(eff.body.maintenance).toEqual({ active: false, until: null, source: null });

      const hard = (await post({ name: 'Hard disk', enforced: true, priority: 1, targets: { clients: [acme.clientId] }, checks: [{ check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 25 } }] })).body;
      eff = await t.http.get(`/api/v3/agents/${a1}/effective-policy/`).set(admin());
      const hardSource = { type: 'policy', policy: { id: hard.id, name: 'Hard disk' }, enforced: true, reason: 'client Acme' };
      expect(eff.body.checks.map((c: { key: string; source: unknown; shadowed_by: unknown }) => [c.key, c.source, c.shadowed_by])).toEqual([
        ['diskspace:C:', hardSource, null],
        ['diskspace:C:', { type: 'agent' }, hardSource],
        ['diskspace:C:', expect.objectContaining({ policy: { id: soft.id, name: 'Soft disk' } }), hardSource],
        ['memory', expect.objectContaining({ policy: { id: soft.id, name: 'Soft disk' } }), null],
      ]);
      // The engine's state row of a policy item (written within moments) is the item's id on this agent.
      const stateId = await until('the engine writes the agent\'s row of the enforced check', async () =>
        ((await t.http.get(`/api/v3/checks/?agent=${a1}`).set(admin())).body as Array<{ id: number; source: { policy?: { id: number } } }>).find((c) => c.source.policy?.id === hard.id)?.id,
      );
      eff = await t.http.get(`/api/v3/agents/${a1}/effective-policy/`).set(admin());
      expect(eff.body.checks[0].id).toBe(stateId);

      // Overrides (written by another part's endpoint): on the non-enforced policy's items they adjust and disable; on
      // the enforced one's they do nothing.
      await sql(
        t.db.url,
        `INSERT INTO policy_overrides (agent_id, policy_id, key, disabled, settings, run_interval, fails_b4_alert)
         VALUES ($1, $2, 'memory', true, NULL, NULL, NULL), ($1, $2, 'diskspace:C:', false, '{"drive": "C:", "threshold_percent": 30}', 600, NULL),
                ($1, $3, 'diskspace:C:', true, NULL, NULL, NULL)`,
        [a1, soft.id, hard.id],
      );
      eff = await t.http.get(`/api/v3/agents/${a1}/effective-policy/`).set(admin());
      expect(eff.body.checks.map((c: { key: string; source: { type: string; policy?: { name: string } }; overridden: boolean; disabled: boolean; run_interval: number }) => [c.key, c.source.policy?.name ?? c.source.type, c.overridden, c.disabled, c.run_interval])).toEqual([
        ['diskspace:C:', 'Hard disk', false, false, 120],
        ['diskspace:C:', 'agent', false, false, 120],
        ['diskspace:C:', 'Soft disk', true, false, 600],
        ['memory', 'Soft disk', false, true, 120],
      ]);
      expect(eff.body.checks[2].settings).toEqual({ drive: 'C:', threshold_percent: 30 });
      await sql(t.db.url, 'DELETE FROM policy_overrides WHERE agent_id = $1', [a1]);

      // Manual maintenance.
      await sql(t.db.url, 'UPDATE agents SET maintenance = true WHERE id = $1', [a1]);
      expect((await t.http.get(`/api/v3/agents/${a1}/effective-policy/`).set(admin())).body.maintenance).toEqual({ active: true, until: null, source: { type: 'agent' } });
      await sql(t.db.url, 'UPDATE agents SET maintenance = false WHERE id = $1', [a1]);
      // A window in force now (every minute, for a day).
      const win = (await post({ name: 'Always window', targets: { tags_any: ['vip'] }, maintenance_windows: [{ schedule: '* * * * *', duration_minutes: 1440, timezone: 'UTC' }] })).body;
      const m = (await t.http.get(`/api/v3/agents/${a2}/effective-policy/`).set(admin())).body.maintenance;
      expect(m).toEqual({ active: true, until: expect.any(String), source: { type: 'policy', policy: { id: win.id, name: 'Always window' } } });

      expect((await t.http.get('/api/v3/agents/999999/effective-policy/').set(admin())).status).toBe(404);
      await sql(t.db.url, 'DELETE FROM checks WHERE agent_id = $1', [a1]);
      for (const p of [soft, hard, win]) await t.http.delete(`/api/v3/policies/${p.id}/`).set(admin());
    });
  });

  describe('access', () => {
    let techCookie: string;
    let viewerCookie: string;
    beforeAll(async () => {
      await createOperator(t, 'tech@acme.example', 'technician', { clients: [acme.clientId] });
      await createOperator(t, 'viewer@msp.example', 'viewer');
      techCookie = await signIn(t, 'tech@acme.example');
      viewerCookie = await signIn(t, 'viewer@msp.example');
    });
    const tech = () => ({ Cookie: techCookie, ...CONSOLE });
    const viewer = () => ({ Cookie: viewerCookie, ...CONSOLE });

    it("lets a client-limited technician write only its clients' policies, and not read a global one", async () => {
      const global = (await post({ name: 'Global', targets: { tags_any: ['finance'] } })).body;
      const theirs = (await post({ name: 'Beta only', targets: { clients: [beta.clientId] } })).body;
      expect((await t.http.get(`/api/v3/policies/${global.id}/`).set(tech())).status).toBe(404);
      expect((await t.http.get(`/api/v3/policies/${theirs.id}/`).set(tech())).status).toBe(404);
      expect((await t.http.patch(`/api/v3/policies/${global.id}/`).set(tech()).send({ priority: 1 })).status).toBe(404);
      expect((await t.http.delete(`/api/v3/policies/${theirs.id}/`).set(tech())).status).toBe(404);

      const other = await t.http.post('/api/v3/policies/').set(tech()).send({ name: 'Sneaky', targets: { clients: [acme.clientId, beta.clientId] } });
      expect(other.status).toBe(400);
      expect(other.body.errors).toEqual([{ field: 'targets.clients', message: `no client ${beta.clientId}` }]);
      const none = await t.http.post('/api/v3/policies/').set(tech()).send({ name: 'Everyone' });
      expect(none.status).toBe(400);
      expect(none.body.errors).toEqual([{ field: 'targets.clients', message: 'must name at least one of your clients' }]);
      const preview = await t.http.post('/api/v3/policies/preview/').set(tech()).send({ targets: { clients: [beta.clientId] } });
      expect(preview.status).toBe(400);

      const mine = await t.http.post('/api/v3/policies/').set(tech()).send({ name: 'Acme disk', targets: { clients: [acme.clientId] }, checks: [{ check_type: 'cpuload', settings: { threshold_percent: 95 } }] });
      expect(mine.status).toBe(201);
      expect(mine.body.agents).toBe(3);
      expect((await t.http.get('/api/v3/policies/').set(tech())).body.map((p: { name: string }) => p.name)).toEqual(['Acme disk']);
      expect((await t.http.get(`/api/v3/agents/${b1}/effective-policy/`).set(tech())).status).toBe(404);
      expect((await t.http.get(`/api/v3/agents/${a1}/effective-policy/`).set(tech())).status).toBe(200);
      for (const p of [global, theirs, mine.body]) await t.http.delete(`/api/v3/policies/${p.id}/`).set(admin());
    });

    it('lets a viewer read but not write; a policy that runs code needs scripts:run', async () => {
      const p = (await post({ name: 'Readable' })).body;
      expect((await t.http.get('/api/v3/policies/').set(viewer())).status).toBe(200);
      expect((await t.http.get(`/api/v3/agents/${a1}/effective-policy/`).set(viewer())).status).toBe(200);
      const refused = await t.http.post('/api/v3/policies/').set(viewer()).send({ name: 'Nope' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: 'permission denied' });
      expect((await t.http.patch(`/api/v3/policies/${p.id}/`).set(viewer()).send({ priority: 1 })).status).toBe(403);

      const { secret } = await t.server.app.get(ApiKeysService).create({ name: 'no-run', scopes: TECHNICIAN.filter((s) => s !== 'scripts:run') });
      const noRun = () => ({ 'X-API-KEY': secret });
      expect((await t.http.post('/api/v3/policies/').set(noRun()).send({ name: 'With task', tasks: [{ name: 'x', script, schedule: '0 1 * * *' }] })).status).toBe(403);
      expect((await t.http.post('/api/v3/policies/').set(noRun()).send({ name: 'Script check', checks: [{ check_type: 'script', settings: { script } }] })).status).toBe(403);
      const plain = await t.http.post('/api/v3/policies/').set(noRun()).send({ name: 'Plain', checks: [{ check_type: 'memory', settings: { threshold_percent: 90 } }] });
      expect(plain.status).toBe(201);
      expect(await sql(t.db.url, `SELECT count(*)::int AS n FROM policies WHERE name IN ('Nope', 'With task', 'Script check')`)).toEqual([{ n: 0 }]);
      for (const id of [p.id, plain.body.id]) await t.http.delete(`/api/v3/policies/${id}/`).set(admin());
    });
  });

  it('audits every change with the policy before and after', async () => {
    const created = (await post({ name: 'Audited', priority: 100 })).body;
    await t.http.patch(`/api/v3/policies/${created.id}/`).set(admin()).send({ priority: 200 });
    await t.http.delete(`/api/v3/policies/${created.id}/`).set(admin());
    await t.server.app.get(AuditService).flush();
    const res = await t.http.get('/api/v3/audit/?path=/api/v3/policies/&limit=1000').set(admin());
    expect(res.status).toBe(200);
    type Side = { id: number; priority: number } | null;
    const rows = (res.body as Array<{ action: string; changes: { before: Side; after: Side } | null }>)
      .filter((r) => r.changes && (r.changes.before ?? r.changes.after)!.id === created.id)
      .reverse();
    expect(rows.map((r) => [r.action, r.changes!.before?.priority ?? null, r.changes!.after?.priority ?? null])).toEqual([
      ['POST /api/v3/policies/', null, 100],
      ['PATCH /api/v3/policies/{id}/', 100, 200],
      ['DELETE /api/v3/policies/{id}/', 200, null],
    ]);
  });
});
