import { Logger } from '@nestjs/common';
import { DEGRADED_AFTER_FAILURES, jittered, JobEnvironment, ScheduledJob } from './scheduled-job';

/** A job's environment on Jest's fake timers: one timer per job name, the lead decided by the test. */
function environment(options: { random?: () => number; lead?: (name: string) => Promise<boolean>; stopWaitMs?: number } = {}) {
  const timers = new Map<string, NodeJS.Timeout>();
  const armed: number[] = [];
  const logger = new Logger('jobs-test');
  jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  jest.spyOn(logger, 'log').mockImplementation(() => undefined);
  const env: JobEnvironment = {
    timers: {
      set: (name, fire, ms) => {
        clearTimeout(timers.get(name));
        armed.push(ms);
        timers.set(name, setTimeout(fire, ms));
      },
      clear: (name) => {
        clearTimeout(timers.get(name));
        timers.delete(name);
      },
    },
    lead: options.lead ?? (async () => true),
    stopWaitMs: options.stopWaitMs ?? 1_000,
    random: options.random ?? Math.random,
    logger,
  };
  return { env, armed, logger };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('ScheduledJob (the registry\'s loop of one job)', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-12-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('waits the interval ± its jitter, never outside it, whatever the random draw', async () => {
    expect(jittered(1_000, 0.1, 0)).toBe(900);
    expect(jittered(1_000, 0.1, 0.5)).toBe(1_000);
    expect(jittered(1_000, 0.1, 0.999999)).toBeLessThan(1_100);
    expect(jittered(1_000, 0, 0.3)).toBe(1_000);
    const { env, armed } = environment();
    const job = new ScheduledJob('t.jitter', { seconds: 1, mode: 'every-instance', jitter: 0.2 }, () => undefined, env);
    job.start();
    await jest.advanceTimersByTimeAsync(200_000);
    expect(armed.length).toBeGreaterThan(150);
    for (const ms of armed) {
      expect(ms).toBeGreaterThanOrEqual(800);
      expect(ms).toBeLessThan(1_200);
    }
    // spread over the range, not one value
    expect(Math.max(...armed) - Math.min(...armed)).toBeGreaterThan(300);
    await job.stop();
  });

  it('runs at start when asked, and shows its next run while waiting and none while running', async () => {
    const { env } = environment({ random: () => 0.5 });
    let release!: () => void;
    const job = new ScheduledJob('t.start', { seconds: 10, mode: 'every-instance', atStart: true }, () => new Promise<void>((r) => (release = r)), env);
    job.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(job.figures()).toMatchObject({ runs: 0, nextRunAt: null, lastStartedAt: new Date('2026-12-01T00:00:00Z') });
    await jest.advanceTimersByTimeAsync(3_000);
    release();
    await jest.advanceTimersByTimeAsync(0);
    // the wait starts when the run ends
    expect(job.figures()).toMatchObject({ runs: 1, failures: 0, lastDurationMs: 3_000, nextRunAt: new Date('2026-12-01T00:00:13Z') });
    await job.stop();
    expect(job.figures().nextRunAt).toBeNull();
  });

  it('never overlaps two runs on its instance: a run asked for meanwhile is made once, after the one under way', async () => {
    const { env } = environment({ random: () => 0.5 });
    let running = 0;
    let most = 0;
    let runs = 0;
    const job = new ScheduledJob(
      't.single',
      { seconds: 0.1, mode: 'every-instance' },
      async () => {
        running++;
        runs++;
        most = Math.max(most, running);
        await sleep(350); // longer than the interval
        running--;
      },
      env,
    );
    job.start();
    await jest.advanceTimersByTimeAsync(150); // the first run is under way
    const asked = [job.runNow(), job.runNow(), job.runNow()];
    expect(asked[1]).toBe(asked[0]);
    await jest.advanceTimersByTimeAsync(2_000);
    await Promise.all(asked);
    const stopping = job.stop();
    await jest.advanceTimersByTimeAsync(1_000);
    await stopping;
    expect(most).toBe(1);
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(job.figures().runs).toBe(runs);
  });

  it(`counts a run that throws, goes on, is degraded after ${DEGRADED_AFTER_FAILURES} failures in a row and ok again after a success`, async () => {
    const { env, logger } = environment({ random: () => 0.5 });
    let failing = true;
    const job = new ScheduledJob(
      't.fails',
      { seconds: 1, mode: 'every-instance' },
      () => {
        if (failing) throw new Error('the database said no');
      },
      env,
    );
    job.start();
    await jest.advanceTimersByTimeAsync(1_000);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(job.figures()).toMatchObject({ state: 'ok', runs: 2, failures: 2, lastError: 'the database said no' });
    await jest.advanceTimersByTimeAsync(1_000);
    expect(job.figures()).toMatchObject({ state: 'degraded', runs: 3, failures: 3 });
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('t.fails: degraded, 3 failures in a row: the database said no'));
    await jest.advanceTimersByTimeAsync(5_000); // the loop goes on while it fails
    expect(job.figures()).toMatchObject({ state: 'degraded', runs: 8, failures: 8 });
    failing = false;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(job.figures()).toMatchObject({ state: 'ok', runs: 9, failures: 8, lastError: null });
    // a rejected promise counts the same as a throw
    const rejecting = new ScheduledJob('t.rejects', { seconds: 1, mode: 'every-instance' }, () => Promise.reject(new Error('no')), env);
    await rejecting.runNow();
    expect(rejecting.figures()).toMatchObject({ runs: 1, failures: 1, lastError: 'no' });
    await job.stop();
  });

  it('stop waits for the run under way, up to its bound, and nothing runs after it', async () => {
    const { env, logger } = environment({ stopWaitMs: 1_000 });
    let ended = false;
    const short = new ScheduledJob(
      't.short',
      { seconds: 1, mode: 'every-instance' },
      async () => {
        await sleep(400);
        ended = true;
      },
      env,
    );
    void short.runNow();
    let stopped = false;
    void short.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(399);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(ended && stopped).toBe(true);

    const long = new ScheduledJob('t.long', { seconds: 1, mode: 'every-instance' }, () => sleep(60_000), env);
    void long.runNow();
    stopped = false;
    void long.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(999);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(stopped).toBe(true);
    expect(logger.warn).toHaveBeenCalledWith('t.long: still running after 1000 ms, not waited for');

    let runs = 0;
    const after = new ScheduledJob('t.after', { seconds: 1, mode: 'every-instance' }, () => void runs++, env);
    after.start();
    await after.stop();
    await after.runNow();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(0);
  });

  it('runs a cluster-once job only where this instance leads it, and counts a lead it cannot tell as a failure', async () => {
    let leading = false;
    let reachable = true;
    const { env } = environment({
      random: () => 0.5,
      lead: async () => {
        if (!reachable) throw new Error('connection refused');
        return leading;
      },
    });
    let runs = 0;
    const job = new ScheduledJob('t.once', { seconds: 1, mode: 'cluster-once' }, () => void runs++, env);
    job.start();
    await jest.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(0);
    expect(job.figures()).toMatchObject({ runs: 0, failures: 0, lastStartedAt: null });
    leading = true;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
    reachable = false;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(job.figures()).toMatchObject({ runs: 2, failures: 1, lastError: 'could not tell whether this instance leads it: connection refused' });
    expect(runs).toBe(1);
    await job.stop();
  });
});
