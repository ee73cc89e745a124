import { AgentFacts, checkKey, matches, merge, matchReason, PolicyFacts, runs, taskKey, windowEnd, windowMaintenance } from './policy-merge';

const agent = (over: Partial<AgentFacts> = {}): AgentFacts => ({ id: 1, clientId: 10, siteId: 100, tags: ['finance'], plat: 'windows', monitoringType: 'server', ...over });
const policy = (over: Partial<PolicyFacts> = {}): PolicyFacts => ({
  id: 1,
  name: 'P',
  enabled: true,
  enforced: false,
  priority: 500,
  targets: {},
  exclude: {},
  maintenanceWindows: [],
  checks: [],
  tasks: [],
  ...over,
});
const disk = (id: number, threshold: number) => ({
  id,
  key: checkKey('diskspace', { drive: 'C:', threshold_percent: threshold }),
  checkType: 'diskspace' as const,
  name: `disk ${threshold}`,
  settings: { drive: 'C:', threshold_percent: threshold },
  scriptId: null,
  runInterval: 120,
  failsB4Alert: 1,
  severity: 'warning' as const,
});
const names = { clients: new Map([[10, 'Acme']]), sites: new Map([[100, 'HQ']]) };

describe('matchReason', () => {
  it('no targets: all agents; a disabled policy: none', () => {
    expect(matchReason(policy(), agent())).toBe('all agents');
    expect(matchReason(policy({ enabled: false }), agent())).toBeNull();
  });
  it('every kind given must match, any value within a kind; tags_all needs all', () => {
    expect(matchReason(policy({ targets: { tags_any: ['x', 'finance'] } }), agent())).toBe('tag finance');
    expect(matchReason(policy({ targets: { clients: [10], platforms: ['windows'] } }), agent(), names)).toBe('client Acme and platform windows');
    expect(matchReason(policy({ targets: { clients: [10], platforms: ['linux'] } }), agent())).toBeNull();
    expect(matchReason(policy({ targets: { tags_all: ['finance', 'vip'] } }), agent())).toBeNull();
    expect(matchReason(policy({ targets: { tags_all: ['finance', 'vip'] } }), agent({ tags: ['finance', 'vip'] }))).toBe('tags finance, vip');
    expect(matchReason(policy({ targets: { sites: [100], monitoring_types: ['server'] } }), agent(), names)).toBe('site HQ and monitoring type server');
  });
  it('any exclusion wins', () => {
    expect(matchReason(policy({ targets: { tags_any: ['finance'] }, exclude: { agents: [1] } }), agent())).toBeNull();
    expect(matchReason(policy({ exclude: { tags: ['finance'] } }), agent())).toBeNull();
    expect(matchReason(policy({ exclude: { clients: [10] } }), agent())).toBeNull();
    expect(matchReason(policy({ exclude: { sites: [101] } }), agent())).toBe('all agents');
  });
});

describe('keys', () => {
  it('name what makes two items the same', () => {
    expect(checkKey('diskspace', { drive: 'c:', threshold_percent: 5 })).toBe(checkKey('diskspace', { drive: 'C:', threshold_percent: 10 }));
    expect(checkKey('diskspace', { drive: '/', threshold_percent: 5 })).not.toBe(checkKey('diskspace', { drive: '/var', threshold_percent: 5 }));
    expect(checkKey('cpuload', { threshold_percent: 5 })).toBe('cpuload');
    expect(checkKey('script', { script: 3, args: ['a'] })).not.toBe(checkKey('script', { script: 3, args: ['b'] }));
    expect(taskKey(3, [], '0  3 * * *')).toBe(taskKey(3, [], '0 3 * * *'));
  });
});

describe('merge', () => {
  const own = (threshold: number) => ({ checks: [{ ...disk(500, threshold) }], tasks: [] });
  it('enforced policies, then the agent, then the others; the first of a key wins', () => {
    const enforced = policy({ id: 2, name: 'E', enforced: true, priority: 900, checks: [disk(21, 5)] });
    const low = policy({ id: 3, name: 'L', priority: 1, checks: [disk(31, 20)] });
    const e = merge(agent(), [low, enforced], own(10));
    expect(e.checks.map((c) => [c.source.type === 'policy' ? c.source.policy.name : 'agent', c.def.settings.threshold_percent, runs(c)])).toEqual([
      ['E', 5, true],
      ['agent', 10, false],
      ['L', 20, false],
    ]);
    expect(e.checks[1].shadowed_by).toMatchObject({ type: 'policy', policy: { id: 2, name: 'E' }, enforced: true, reason: 'all agents' });
  });
  it('without an enforced policy the agent\'s own check wins over a policy\'s', () => {
    const e = merge(agent(), [policy({ checks: [disk(11, 20)] })], own(10));
    expect(e.checks.filter(runs).map((c) => c.source.type)).toEqual(['agent']);
  });
  it('among policies, lower priority first, then lower id', () => {
    const a = policy({ id: 5, name: 'A', priority: 100, checks: [disk(51, 1)] });
    const b = policy({ id: 4, name: 'B', priority: 100, checks: [disk(41, 2)] });
    const c = policy({ id: 1, name: 'C', priority: 200, checks: [disk(11, 3)] });
    const e = merge(agent(), [a, c, b], { checks: [], tasks: [] });
    expect(e.checks.filter(runs).map((x) => (x.source as { policy: { name: string } }).policy.name)).toEqual(['B']);
  });
  it('an override disables or adjusts an inherited item; one on an enforced item does nothing', () => {
    const p = policy({ id: 7, checks: [disk(71, 20)] });
    const off = merge(agent(), [p], { checks: [], tasks: [] }, [{ policyId: 7, key: disk(71, 20).key, disabled: true, settings: null, runInterval: null, failsB4Alert: null }]);
    expect(off.checks[0]).toMatchObject({ disabled: true, overridden: false });
    expect(runs(off.checks[0])).toBe(false);
    const adj = merge(agent(), [p], { checks: [], tasks: [] }, [{ policyId: 7, key: disk(71, 20).key, disabled: false, settings: null, runInterval: 600, failsB4Alert: 3 }]);
    expect(adj.checks[0]).toMatchObject({ overridden: true, def: { runInterval: 600, failsB4Alert: 3 } });
    const enf = merge(agent(), [{ ...p, enforced: true }], { checks: [], tasks: [] }, [{ policyId: 7, key: disk(71, 20).key, disabled: true, settings: null, runInterval: null, failsB4Alert: null }]);
    expect(runs(enf.checks[0])).toBe(true);
  });
  it('a policy that does not match adds nothing', () => {
    expect(merge(agent({ tags: [] }), [policy({ targets: { tags_any: ['finance'] }, checks: [disk(1, 1)] })], { checks: [], tasks: [] }).checks).toEqual([]);
  });
});

describe('maintenance windows', () => {
  const w = { schedule: '0 22 * * *', duration_minutes: 120, timezone: 'Europe/Paris' };
  it('in force from each start for its duration, in its time zone', () => {
    // 22:00 in Paris on 2026-11-28 is 21:00 UTC
    expect(windowEnd(w, new Date('2026-11-28T20:59:00Z'))).toBeNull();
    expect(windowEnd(w, new Date('2026-11-28T21:00:00Z'))?.toISOString()).toBe('2026-11-28T23:00:00.000Z');
    expect(windowEnd(w, new Date('2026-11-28T22:59:59Z'))?.toISOString()).toBe('2026-11-28T23:00:00.000Z');
    expect(windowEnd(w, new Date('2026-11-28T23:00:00Z'))).toBeNull();
  });
  it('an agent is in the window of a matching policy only', () => {
    const p = policy({ id: 9, name: 'Nightly', targets: { tags_any: ['finance'] }, maintenanceWindows: [w] });
    expect(windowMaintenance(agent(), [p], new Date('2026-11-28T22:00:00Z'))).toEqual({ active: true, until: new Date('2026-11-28T23:00:00Z'), source: { id: 9, name: 'Nightly' } });
    expect(windowMaintenance(agent({ tags: [] }), [p], new Date('2026-11-28T22:00:00Z')).active).toBe(false);
  });
});

describe('matches', () => {
  it('says what matchReason says, for every combination of targets and exclusions tried', () => {
    const policies: PolicyFacts[] = [
      policy(),
      policy({ enabled: false }),
      policy({ targets: { tags_any: ['x', 'finance'] } }),
      policy({ targets: { tags_all: ['finance', 'vip'] } }),
      policy({ targets: { clients: [10], platforms: ['windows'] } }),
      policy({ targets: { clients: [11] } }),
      policy({ targets: { sites: [100], monitoring_types: ['workstation'] } }),
      policy({ exclude: { agents: [1] } }),
      policy({ exclude: { tags: ['vip'] } }),
      policy({ targets: { sites: [100] }, exclude: { clients: [10] } }),
      policy({ exclude: { sites: [101] } }),
    ];
    const agents = [agent(), agent({ id: 2, tags: ['finance', 'vip'] }), agent({ id: 3, clientId: null, siteId: null, tags: [] }), agent({ id: 4, plat: 'linux', monitoringType: 'workstation', siteId: 101 })];
    for (const p of policies) for (const a of agents) expect([p, a, matches(p, a)]).toEqual([p, a, matchReason(p, a) !== null]);
  });
});
