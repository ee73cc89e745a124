import { TransactionHost } from '../../../apps/api/src/database/transaction-host';
import { PolicyEngine, RECONCILE_BATCH } from '../../../apps/api/src/rmm/automation/policies/policy-engine';
import { checkKey, taskKey } from '../../../apps/api/src/rmm/automation/policies/policy-merge';
import { sql } from '../../utils/sql';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext } from '../medium.harness';

/**
 * The policy engine's writes are set-based (issue #31 point 7): reconciling a batch of agents costs the same number
 * of statements whether it holds 200 agents or 2,000 (each one a recordset over the whole batch), never one per
 * agent; and it writes every matching agent's state rows.
 */
describe('PolicyEngine on PostgreSQL: statements per batch', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let site: { clientId: number; id: number };

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    site = await f.newSite();
    const script = await f.newScript({ name: 'policy-engine-medium' });
    const [p] = await sql<{ id: number }>(ctx.db.url, `INSERT INTO policies (name, targets) VALUES ('Finance', '{"tags_any": ["finance"]}') RETURNING id`);
    for (const [i, [type, settings]] of ([['diskspace', { drive: '/', threshold_percent: 10 }], ['memory', { threshold_percent: 90 }]] as const).entries()) {
      await sql(ctx.db.url, `INSERT INTO policy_checks (policy_id, position, key, check_type, name, settings) VALUES ($1, $2, $3, $4, $5, $6)`, [
        p.id,
        i,
        checkKey(type, settings),
        type,
        `${type} check`,
        JSON.stringify(settings),
      ]);
    }
    await sql(ctx.db.url, `INSERT INTO policy_tasks (policy_id, position, key, name, script_id, schedule) VALUES ($1, 0, $2, 'Nightly', $3, '0 3 * * *')`, [
      p.id,
      taskKey(script.id, [], '0 3 * * *'),
      script.id,
    ]);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** `n` agents tagged finance (every other one also with an own memory check the policy's does not shadow). */
  const agents = async (n: number, prefix: string): Promise<number[]> => {
    const rows = await sql<{ id: number }>(
      ctx.db.url,
      `INSERT INTO agents (hostname, client_id, site_id, plat, monitoring_type, status, version, tags)
       SELECT $1 || g, $2, $3, 'linux', 'server', 'offline', '0.1.0', '{finance}' FROM generate_series(1, $4) g RETURNING id`,
      [prefix, site.clientId, site.id, n],
    );
    const ids = rows.map((r) => r.id);
    await sql(ctx.db.url, `INSERT INTO checks (agent_id, check_type, name, settings) SELECT id, 'cpuload', 'cpu', '{"threshold_percent": 90}' FROM unnest($1::int[]) id WHERE id % 2 = 0`, [ids]);
    return ids;
  };

  /** The statements one reconcile of these agents runs. */
  const statements = async (ids: number[]): Promise<number> => {
    const tx = ctx.get(TransactionHost);
    const rows = jest.spyOn(tx, 'rows');
    const exec = jest.spyOn(tx, 'exec');
    try {
      await ctx.get(PolicyEngine).reconcile(ids);
      return rows.mock.calls.length + exec.mock.calls.length;
    } finally {
      rows.mockRestore();
      exec.mockRestore();
    }
  };

  it('reconciles 2,000 agents in as many statements as 200, and writes each its two checks and its task', async () => {
    const small = await agents(200, 'pe-small-');
    const large = await agents(RECONCILE_BATCH, 'pe-large-');
    const forSmall = await statements(small);
    const forLarge = await statements(large);
    expect(forLarge).toBe(forSmall);
    expect(forLarge).toBeLessThanOrEqual(20);
    const [written] = await sql<{ checks: number; tasks: number; scheduled: number }>(
      ctx.db.url,
      `SELECT (SELECT count(*)::int FROM checks WHERE policy_check_id IS NOT NULL AND agent_id = ANY($1)) AS checks,
              (SELECT count(*)::int FROM tasks WHERE policy_task_id IS NOT NULL AND agent_id = ANY($1)) AS tasks,
              (SELECT count(*)::int FROM tasks WHERE policy_task_id IS NOT NULL AND agent_id = ANY($1) AND next_run_at IS NOT NULL) AS scheduled`,
      [large],
    );
    expect(written).toEqual({ checks: 2 * RECONCILE_BATCH, tasks: RECONCILE_BATCH, scheduled: RECONCILE_BATCH });

    // Nothing changed: a second pass writes nothing and still costs no more.
    const [before] = await sql<{ max: Date }>(ctx.db.url, `SELECT max(updated_at) AS max FROM checks`);
    expect(await statements(large)).toBeLessThanOrEqual(forLarge);
    const [after] = await sql<{ max: Date }>(ctx.db.url, `SELECT max(updated_at) AS max FROM checks`);
    expect(after.max).toEqual(before.max);
  });

  it('removes the rows of agents the policy no longer matches, in as many statements for 2,000 agents as for 200', async () => {
    const small = await agents(200, 'pe-untag-small-');
    const large = await agents(RECONCILE_BATCH, 'pe-untag-large-');
    await ctx.get(PolicyEngine).reconcile([...small, ...large]);
    await sql(ctx.db.url, `UPDATE agents SET tags = '{}' WHERE id = ANY($1)`, [[...small, ...large]]);
    expect(await statements(large)).toBe(await statements(small));
    const [left] = await sql<{ n: number }>(ctx.db.url, `SELECT count(*)::int AS n FROM checks WHERE policy_check_id IS NOT NULL AND agent_id = ANY($1)`, [[...small, ...large]]);
    expect(left.n).toBe(0);
  });
});
