import type { HttpAdapterHost } from '@nestjs/core';
import { SchedulerRegistry } from '@nestjs/schedule';
import { ThisInstance } from '../../../apps/api/src/common/instance';
import { ClusterLeadership, JOBS_LOCK_SPACE } from '../../../apps/api/src/jobs/cluster-leadership';
import { JobRegistry } from '../../../apps/api/src/jobs/job-registry';
import { JobStatesRepository } from '../../../apps/api/src/jobs/job-states.repository';
import { sql } from '../../utils/sql';
import { sleep, until } from '../../utils/wait';
import { createMediumContext, MediumContext } from '../medium.harness';

const INTERVAL_S = 1;
/** The lead moves at the other's next tick: one interval, plus its jitter (10 %), plus a margin for a loaded machine. */
const TAKEOVER_BOUND_MS = INTERVAL_S * 1000 * 1.1 + 500;

/**
 * Two job registries on one real PostgreSQL, as two instances would run them (each its own leadership connection,
 * both writing job_states): a cluster-once job runs on one of them only, and when the leader's session dies (its
 * backend terminated, as when its process is killed) the other takes the job at its next tick, within one interval.
 */
describe('the job registry on PostgreSQL: one leader per cluster-once job, taken over when it dies', () => {
  let ctx: MediumContext;
  const registries: JobRegistry[] = [];

  /** One instance's registry, started as the app starts it. */
  function instance(): { registry: JobRegistry; id: string; runs: number[]; leadership: ClusterLeadership } {
    const me = new ThisInstance();
    const leadership = new ClusterLeadership(ctx.db.url);
    const serving = { httpAdapter: { getHttpServer: () => ({}) } } as unknown as HttpAdapterHost;
    const registry = new JobRegistry(new SchedulerRegistry(), leadership, ctx.get(JobStatesRepository), me, serving);
    const runs: number[] = [];
    registry.every('test.once', { seconds: INTERVAL_S, mode: 'cluster-once' }, () => void runs.push(Date.now()));
    registry.every('test.everywhere', { seconds: INTERVAL_S, mode: 'every-instance' }, () => undefined);
    registries.push(registry);
    return { registry, id: me.id, runs, leadership };
  }

  /** The backend holding the job's advisory lock (the leader's session). */
  const holder = async (job: string): Promise<number | undefined> =>
    (
      await sql<{ pid: number }>(
        ctx.db.url,
        `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = hashtext($2)::oid AND objsubid = 2 AND granted`,
        [JOBS_LOCK_SPACE, job],
      )
    )[0]?.pid;

  beforeAll(async () => {
    ctx = await createMediumContext();
  });
  afterAll(async () => {
    for (const r of registries) await r.beforeApplicationShutdown();
    await ctx?.close();
  });

  it('runs the cluster-once job on one instance only, lists both instances\' jobs, and moves the job within one interval when the leader dies', async () => {
    const a = instance();
    a.registry.onApplicationBootstrap();
    await until('A leads the job', async () => a.runs.length >= 1);
    const b = instance();
    b.registry.onApplicationBootstrap();
    await sleep(INTERVAL_S * 1000 * 4);
    expect(b.runs).toEqual([]); // A holds the lock: B's ticks find it taken
    expect(a.runs.length).toBeGreaterThanOrEqual(3);

    // Both instances' jobs, from each side (its own from memory, the other's from job_states)
    const listed = await until('both instances listed', async () => {
      const all = await a.registry.everywhere();
      return all.filter((j) => j.name === 'test.once').length === 2 && all;
    });
    expect(listed.filter((j) => j.name === 'test.everywhere').map((j) => j.instance).sort()).toEqual([a.id, b.id].sort());
    expect(listed.find((j) => j.name === 'test.once' && j.instance === b.id)).toMatchObject({ mode: 'cluster-once', runs: 0, state: 'ok' });
    expect(listed.find((j) => j.name === 'jobs.report' && j.instance === a.id)).toMatchObject({ mode: 'every-instance', intervalSeconds: 5 });
    // (A's figures as B reads them: A's last report, at most JOB_REPORT_SECONDS old)
    await until('A\'s runs in its report, read by B', async () => (await b.registry.everywhere()).find((j) => j.name === 'test.once' && j.instance === a.id)!.runs >= 1, 10_000);

    // A's session ends as a killed process's does: PostgreSQL frees its locks; B takes the job at its next tick.
    const pid = await holder('test.once');
    expect(pid).toBeDefined();
    const aRuns = a.runs.length;
    const killedAt = Date.now();
    // A killed process does not come back for the lead: A's leadership may not connect again (without this, A's
    // next tick reconnecting raced B's on a loaded CI machine and sometimes won)
    (a.leadership as unknown as { closed: boolean }).closed = true;
    await sql(ctx.db.url, 'SELECT pg_terminate_backend($1)', [pid]);
    await until('B takes the job over', async () => b.runs.length >= 1, 5_000);
    expect(b.runs[0] - killedAt).toBeLessThanOrEqual(TAKEOVER_BOUND_MS);
    expect(await holder('test.once')).not.toBe(pid);
    // A lost its lead with its connection and leads nothing since
    await sleep(INTERVAL_S * 1000 * 3);
    expect(a.runs.length).toBeLessThanOrEqual(aRuns + 1);
    expect(b.runs.length).toBeGreaterThanOrEqual(2);

    // A stopping removes its rows; B's stay
    await a.registry.beforeApplicationShutdown();
    const rows = await sql<{ instance: string }>(ctx.db.url, 'SELECT DISTINCT instance::text FROM job_states');
    expect(rows.map((r) => r.instance)).toEqual([b.id]);
  });
});
