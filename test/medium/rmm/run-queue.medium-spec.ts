import { ScriptRunEntity } from '@app/entities';
import { ScriptRunsRepository } from '../../../apps/api/src/rmm/automation/script-runs/script-runs.repository';
import { ScriptRunsService } from '../../../apps/api/src/rmm/automation/script-runs/script-runs.service';
import { ScriptsService } from '../../../apps/api/src/rmm/automation/scripts/scripts.service';
import { MediumFactory } from '../medium.factory';
import { createMediumContext, MediumContext } from '../medium.harness';

const finished = { status: 'finished' as const, retcode: 0, stdout: 'ok\n', stderr: '', stdoutTruncated: false, stderrTruncated: false, timedOut: false, executionTime: 0.1, error: null };

/** The queue's claims, on PostgreSQL: the oldest first, one running at a time however many ask at once, never an expired one. */
describe('the run queue on PostgreSQL (ScriptRunsRepository.claimNext, ScriptRunsService.enqueue and cancel)', () => {
  let ctx: MediumContext;
  let f: MediumFactory;
  let runs: ScriptRunsService;
  let repo: ScriptRunsRepository;

  beforeAll(async () => {
    ctx = await createMediumContext();
    f = new MediumFactory(ctx);
    runs = ctx.get(ScriptRunsService);
    repo = ctx.get(ScriptRunsRepository);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const now = (): Date => ctx.clock.now();

  it('claims the oldest queued run, once, for any number of claims at the same moment; the next only once it has ended', async () => {
    const agent = await f.newAgent({ status: 'offline' });
    const script = await f.newScript({ body: 'echo as queued' });
    const queued: ScriptRunEntity[] = [];
    for (let i = 0; i < 3; i++) queued.push(await runs.enqueue(agent.id, script, { requestedByKeyId: null }));
    // What runs is what was asked: an edit after queueing changes nothing queued.
    await ctx.get(ScriptsService).update(script.id, { body: 'echo edited' });

    const claims = await Promise.all(Array.from({ length: 6 }, () => repo.claimNext(agent.id, now)));
    const claimed = claims.map((c) => c.run).filter((r) => r !== null);
    expect(claimed.map((r) => [r.id, r.status, r.body])).toEqual([[queued[0].id, 'running', 'echo as queued']]);
    expect(claimed[0].startedAt).toEqual(now());
    // Still running: nothing more to claim.
    expect((await repo.claimNext(agent.id, now)).run).toBeNull();

    await repo.finish(queued[0].id, { ...finished, finishedAt: now() });
    expect((await repo.claimNext(agent.id, now)).run?.id).toBe(queued[1].id);
    await repo.finish(queued[1].id, { ...finished, status: 'interrupted', finishedAt: now() });
    expect((await repo.claimNext(agent.id, now)).run?.id).toBe(queued[2].id);
    await repo.finish(queued[2].id, { ...finished, finishedAt: now() });
    expect((await repo.claimNext(agent.id, now)).run).toBeNull();
  });

  it('never claims a run past its expires_at: it becomes expired (claimNext, and the sweep for every agent)', async () => {
    const agent = await f.newAgent({ status: 'offline' });
    const other = await f.newAgent({ status: 'offline' });
    const script = await f.newScript();
    const soon = await runs.enqueue(agent.id, script, { requestedByKeyId: null, expiresInSeconds: 60 });
    const later = await runs.enqueue(agent.id, script, { requestedByKeyId: null, expiresInSeconds: 3_600 });
    const elsewhere = await runs.enqueue(other.id, script, { requestedByKeyId: null, expiresInSeconds: 60 });
    expect(soon.expiresAt).toEqual(new Date(now().getTime() + 60_000));

    ctx.clock.advance(60_000);
    const { run, expired } = await repo.claimNext(agent.id, now);
    expect([run?.id, expired]).toEqual([later.id, [soon.id]]);
    expect(await runs.get(agent.id, soon.id)).toMatchObject({ status: 'expired', startedAt: null, finishedAt: now(), error: 'the agent did not connect before the run expired' });
    // The other agent's run, past its expiry too, is left to the sweep.
    expect((await runs.get(other.id, elsewhere.id)).status).toBe('queued');
    expect(await repo.expire(now())).toEqual([elsewhere.id]);
    expect((await runs.get(other.id, elsewhere.id)).status).toBe('expired');
  });

  it('cancels a queued run once; a run not queued is refused with its status, an unknown one is not found', async () => {
    const agent = await f.newAgent({ status: 'offline' });
    const script = await f.newScript();
    const a = await runs.enqueue(agent.id, script, { requestedByKeyId: null });
    const b = await runs.enqueue(agent.id, script, { requestedByKeyId: null });
    expect(await runs.cancel(agent.id, a.id)).toMatchObject({ id: a.id, status: 'cancelled', startedAt: null, finishedAt: now() });
    await expect(runs.cancel(agent.id, a.id)).rejects.toMatchObject({ code: 'run_not_queued', message: `run ${a.id} is cancelled: only a queued run can be cancelled` });
    // The cancelled run is passed over: the next claim takes b.
    expect((await repo.claimNext(agent.id, now)).run?.id).toBe(b.id);
    await expect(runs.cancel(agent.id, b.id)).rejects.toMatchObject({ code: 'run_not_queued', message: `run ${b.id} is running: only a queued run can be cancelled` });
    const stranger = await f.newAgent();
    await expect(runs.cancel(stranger.id, b.id)).rejects.toMatchObject({ message: 'Not found' });
    await expect(runs.cancel(agent.id, 2_147_483_647)).rejects.toMatchObject({ message: 'Not found' });
  });

  it('lists an agent\'s runs by status, and the stale-run sweep leaves queued runs alone', async () => {
    const agent = await f.newAgent({ status: 'offline' });
    const script = await f.newScript();
    const q = await runs.enqueue(agent.id, script, { requestedByKeyId: null, expiresInSeconds: 604_800 });
    ctx.clock.advance(3 * 86_400_000);
    await repo.interruptStale(now());
    const [rows, total] = await runs.list(agent.id, { status: 'queued' }, { offset: 0, limit: 100 });
    expect([rows.map((r) => r.id), total]).toEqual([[q.id], 1]);
    expect((await runs.list(agent.id, { status: 'running' }, { offset: 0, limit: 100 }))[1]).toBe(0);
  });
});
