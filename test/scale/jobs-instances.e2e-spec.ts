import { apiClient, ServerProcess, startServerProcess } from '../utils/server-process';
import { sql } from '../utils/sql';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { until } from '../utils/wait';

/**
 * The periodic-job registry across instances (issue 28), on two real server processes and one PostgreSQL (no Redis:
 * the registry needs none). GET /api/v3/system/jobs/ lists every job of both instances with its last run; the
 * cluster-once job availability.reconcile (every RMM_RECONCILE_SECONDS, 2 s here) runs on one of them, and moves to
 * the other within one interval when that one is killed (SIGKILL: its leadership connection closes with it); a
 * real job made to fail (its table renamed away under it) shows degraded there and in /readyz, whose status stays 200.
 */
const ADMIN = 'jobs-instances-admin-key-0123456789abcdef';
const RECONCILE_SECONDS = 2;
const FIELDS = ['name', 'instance', 'mode', 'interval_seconds', 'state', 'runs', 'failures', 'last_started_at', 'last_duration_ms', 'last_error', 'next_run_at'];

interface JobEntry {
  name: string;
  instance: string;
  mode: 'every-instance' | 'cluster-once';
  interval_seconds: number;
  state: 'ok' | 'degraded';
  runs: number;
  failures: number;
  last_started_at: string | null;
  last_duration_ms: number | null;
  last_error: string | null;
  next_run_at: string | null;
}

describe('periodic jobs on two instances (two server processes, one database)', () => {
  let db: TestDatabase;
  const servers: ServerProcess[] = [];

  const start = async (): Promise<ServerProcess> => {
    const s = await startServerProcess({ DATABASE_URL: db.url, RMM_ADMIN_API_KEY: ADMIN, RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_RECONCILE_SECONDS: String(RECONCILE_SECONDS) });
    servers.push(s);
    return s;
  };
  const jobsOf = async (s: ServerProcess): Promise<JobEntry[]> => {
    const res = await apiClient(s.url, ADMIN)('GET', '/api/v3/system/jobs/');
    expect(res.status).toBe(200);
    return res.body as JobEntry[];
  };
  const entry = (all: JobEntry[], name: string, instance: string): JobEntry | undefined => all.find((j) => j.name === name && j.instance === instance);

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const s of servers) if (s.exitCode() === null) await s.stop();
    await db?.drop();
  });

  it('lists every job of both instances; a killed leader\'s cluster-once job moves within one interval; a failing job is degraded there and in /readyz', async () => {
    // A alone first: it takes the lead of the cluster-once jobs (its id is the only instance it lists).
    const a = await start();
    const aId = (
      await until('A runs availability.reconcile', async () => {
        const all = await jobsOf(a);
        return all.find((j) => j.name === 'availability.reconcile' && j.runs > 0);
      }, 20_000)
    ).instance;
    const b = await start();

    // Every job of both instances, each once per instance, with its last run (the other instance's figures come
    // from its last report, at most 5 s old).
    const listed = await until(
      'both instances with their first runs',
      async () => {
        const all = await jobsOf(b);
        const ids = [...new Set(all.map((j) => j.instance))];
        return ids.length === 2 && ids.every((i) => (entry(all, 'jobs.report', i)?.runs ?? 0) >= 1 && (entry(all, 'presence.flush', i)?.runs ?? 0) >= 1) && all;
      },
      30_000,
    );
    const bId = [...new Set(listed.map((j) => j.instance))].find((i) => i !== aId)!;
    expect(bId).toBeDefined();
    const names = [...new Set(listed.map((j) => j.name))].sort();
    expect(names).toEqual(
      expect.arrayContaining(['agent-channel.ping', 'audit.flush', 'availability.reconcile', 'enrollment.sweep', 'jobs.report', 'notifications.prune', 'presence.flush', 'presence.silence-sweep', 'tasks.claim']),
    );
    for (const i of [aId, bId]) expect(listed.filter((j) => j.instance === i).map((j) => j.name).sort()).toEqual(names);
    for (const j of listed) expect(Object.keys(j).sort()).toEqual([...FIELDS].sort());
    expect(entry(listed, 'presence.flush', aId)).toMatchObject({ mode: 'every-instance', interval_seconds: 5, state: 'ok', failures: 0, last_error: null });
    expect(entry(listed, 'availability.reconcile', bId)).toMatchObject({ mode: 'cluster-once', interval_seconds: RECONCILE_SECONDS, runs: 0 });
    const flushed = entry(listed, 'presence.flush', bId)!;
    expect(new Date(flushed.last_started_at!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(flushed.last_duration_ms).toEqual(expect.any(Number));
    expect(new Date(flushed.next_run_at ?? Date.now()).getTime()).toBeGreaterThan(Date.now() - 10_000);
    expect(listed.map((j) => `${j.name} ${j.instance}`)).toEqual(listed.map((j) => `${j.name} ${j.instance}`).sort());
    // Admin only
    expect((await fetch(`${a.url}/api/v3/system/jobs/`)).status).toBe(401);

    // A leads availability.reconcile: B's ticks find the lock taken, and B never runs it.
    const before = await until('A\'s runs in its report', async () => (entry(await jobsOf(b), 'availability.reconcile', aId)?.runs ?? 0) >= 2 && true, 15_000);
    expect(before).toBe(true);
    expect(entry(await jobsOf(b), 'availability.reconcile', bId)!.runs).toBe(0);

    // A dies: its connection closes, PostgreSQL frees the lock, B takes the job at its next tick.
    process.kill(a.pid, 'SIGKILL');
    const killedAt = Date.now();
    const taken = await until('B runs availability.reconcile', async () => {
      const mine = entry(await jobsOf(b), 'availability.reconcile', bId)!;
      return mine.runs > 0 && mine;
    }, 15_000);
    // within one interval (+ its 10 % jitter, + the moment the kernel takes to close the connection)
    expect(new Date(taken.last_started_at!).getTime() - killedAt).toBeLessThanOrEqual(RECONCILE_SECONDS * 1000 * 1.1 + 500);

    // A real job made to fail: the table it reads renamed away under it. Three failures in a row: degraded, in the
    // list and in /readyz's detail; the status code stays 200 (the database answers).
    await sql(db.url, 'ALTER TABLE alerts RENAME TO alerts_away');
    try {
      const failing = await until('availability.reconcile degraded', async () => {
        const mine = entry(await jobsOf(b), 'availability.reconcile', bId)!;
        return mine.state === 'degraded' && mine;
      }, 20_000);
      expect(failing.failures).toBeGreaterThanOrEqual(3);
      expect(failing.last_error).toMatch(/relation "alerts" does not exist/);
      const ready = await fetch(`${b.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', database: 'up', degraded_jobs: ['availability.reconcile'] });
    } finally {
      await sql(db.url, 'ALTER TABLE alerts_away RENAME TO alerts');
    }
    // One run that succeeds: ok again, and /readyz says nothing more
    await until('availability.reconcile ok again', async () => entry(await jobsOf(b), 'availability.reconcile', bId)!.state === 'ok', 15_000);
    expect(await (await fetch(`${b.url}/readyz`)).json()).toEqual({ status: 'ready', database: 'up' });
    expect(b.exitCode()).toBeNull();
  });
});
