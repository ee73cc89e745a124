import { AgentPresenceService } from '../../../apps/api/src/rmm/fleet/presence/agent-presence.service';
import { PresenceConnection } from '../../../apps/api/src/rmm/fleet/presence/presence-rules';
import { TransactionHost } from '../../../apps/api/src/database/transaction-host';
import { sql } from '../../utils/sql';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext } from '../medium.harness';

/**
 * The presence writes at scale: batched UPDATEs of thousands of agent rows running side by side (a status batch,
 * a heartbeat flush, a facts flush) never deadlock, whatever order their rows come in. PostgreSQL counts every
 * deadlock it breaks per database (pg_stat_database.deadlocks), so the test reads that counter: a deadlock that
 * the repository's retry would hide (after PostgreSQL's 1 s deadlock_timeout) still shows there.
 */
describe('AgentPresenceService: batched writes side by side', () => {
  let ctx: MediumContext;
  let presence: AgentPresenceService;
  let ids: number[];

  const deadlocks = async (): Promise<number> => {
    const [row] = await sql<{ n: string }>(ctx.db.url, `SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()`);
    return Number(row.n);
  };

  beforeAll(async () => {
    ctx = await createMediumContext();
    presence = ctx.get(AgentPresenceService);
    const site = await new MediumFactory(ctx).newSite();
    const rows = await sql<{ id: number }>(
      ctx.db.url,
      `INSERT INTO agents (hostname, client_id, site_id, plat, monitoring_type, status, version, last_seen)
       SELECT 'presence-' || g, $1, $2, 'linux', 'workstation', 'offline', '0.1.0', now() FROM generate_series(1, 3000) g RETURNING id`,
      [site.clientId, site.id],
    );
    ids = rows.map((r) => r.id).sort((a, b) => a - b);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('takes row locks in one order: statuses in descending id order, heartbeats and facts ascending, ten rounds, no deadlock', async () => {
    // (pg_stat_database is updated when a backend goes idle, at most once a second: settle before each reading)
    await new Promise((r) => setTimeout(r, 1_100));
    const before = await deadlocks();
    const conns = new Map<number, PresenceConnection>();
    for (let round = 0; round < 10; round++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, round));
      // Queued in this order, each batch lists its rows in it: the status batch descending…
      // (even rounds connect every agent, odd rounds close those connections)
      const statuses: Array<Promise<unknown>> =
        round % 2 === 0
          ? [...ids].reverse().map((id) => presence.connect(id, at).then((c) => conns.set(id, c)))
          : [...ids].reverse().map((id) => presence.disconnect(conns.get(id)!));
      // …the heartbeat and facts flush ascending (facts that change every round, so every row is written).
      for (const id of ids) presence.heartbeat(id, at, { cpu_model: `CPU ${round}`, total_ram: 8 + round });
      await Promise.all([...statuses, presence.flush()]);
    }
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await deadlocks()).toBe(before);
    // And every write landed: the last round's facts on every row.
    const [written] = await sql<{ n: number }>(ctx.db.url, `SELECT count(*)::int AS n FROM agents WHERE id = ANY($1) AND cpu_model = 'CPU 9' AND total_ram = 17`, [ids]);
    expect(written.n).toBe(ids.length);
  });

  it('reads agent secrets in batches when upgrades arrive one per event-loop turn: every answer right, far fewer reads than agents', async () => {
    const asked = ids.slice(0, 600);
    await sql(ctx.db.url, `UPDATE agents SET secret_hash = encode(sha256(convert_to('secret-' || id, 'UTF8')), 'hex') WHERE id = ANY($1)`, [asked]);
    const rows = jest.spyOn(ctx.get(TransactionHost), 'rows');
    try {
      const answers: Array<Promise<boolean>> = [];
      for (const id of asked) {
        // every fifth agent offers a wrong secret; one agent is asked about per turn, as upgrades come in a storm
        answers.push(presence.verifySecret(id, id % 5 === 0 ? `wrong-${id}` : `secret-${id}`));
        await new Promise((r) => setImmediate(r));
      }
      expect(await Promise.all(answers)).toEqual(asked.map((id) => id % 5 !== 0));
      const reads = rows.mock.calls.filter(([text]) => /secret_hash FROM agents/.test(String(text))).length;
      expect(reads).toBeGreaterThan(0);
      expect(reads).toBeLessThan(asked.length / 4);
    } finally {
      rows.mockRestore();
    }
  });
  it('a release (this server going away) writes when the agent was heard and leaves its status; a superseded one writes nothing; the sweep decides past the allowance (issue 29, point 4)', async () => {
    const id = ids[0];
    const at = (s: number): Date => new Date(Date.UTC(2026, 1, 1) + s * 1_000);
    const row = async (): Promise<{ status: string; last_seen: Date }> =>
      (await sql<{ status: string; last_seen: Date }>(ctx.db.url, `SELECT status, last_seen FROM agents WHERE id = $1`, [id]))[0];
    const old = await presence.connect(id, at(0));
    const current = await presence.connect(id, at(1));
    await presence.disconnect(old, { heardAt: at(5) }); // (replaced by `current`: its epoch is stale)
    expect(await row()).toEqual({ status: 'online', last_seen: at(1) });
    await presence.disconnect(current, { heardAt: at(9) });
    expect(await row()).toEqual({ status: 'online', last_seen: at(9) });
    // (overdue after a year: the other agents of this file, last seen in January, stay as they are)
    expect((await presence.markSilent(at(9 + 119), 120, 31_536_000)).offline).toEqual([]);
    expect((await presence.markSilent(at(9 + 121), 120, 31_536_000)).offline).toEqual([id]);
    expect(await row()).toEqual({ status: 'offline', last_seen: at(9) });
  });
});
