import { ConfigError, loadConfig } from './app-config';

/** The task scheduler's variables (docs/decisions.md, "Tasks that fire"). */
describe('loadConfig: RMM_TASK_TICK_MS and RMM_TASK_MAX_CONCURRENT_RUNS', () => {
  it('defaults to a claim every second and 20 runs at once per instance', () => {
    expect(loadConfig({})).toMatchObject({ taskTickMs: 1_000, taskMaxConcurrentRuns: 20 });
    expect(loadConfig({ RMM_TASK_TICK_MS: '250', RMM_TASK_MAX_CONCURRENT_RUNS: '5' })).toMatchObject({ taskTickMs: 250, taskMaxConcurrentRuns: 5 });
  });

  it.each([
    [{ RMM_TASK_TICK_MS: '50' }, 'RMM_TASK_TICK_MS must be a whole number from 100 to 60000, got "50"'],
    [{ RMM_TASK_TICK_MS: '1s' }, 'RMM_TASK_TICK_MS must be a whole number from 100 to 60000, got "1s"'],
    [{ RMM_TASK_MAX_CONCURRENT_RUNS: '0' }, 'RMM_TASK_MAX_CONCURRENT_RUNS must be a whole number from 1 to 1000, got "0"'],
  ])('refuses %j, naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(Object.keys(env)[0], message.replace(/^\S+ /, '')));
  });
});
