import { CheckResultGate, DROP_WINDOW_MS, MAX_DROPS_PER_MINUTE, spacingMs } from './check-result-gate';

/** The rule of N2 (issue 30): a check's results at most once per max(run_interval / 2, 5 s); 100 drops a minute close. */
describe('CheckResultGate (N2: what one agent can cost)', () => {
  const T0 = 1_000_000;

  it('spaces results by half the run interval, at least 5 s', () => {
    expect([spacingMs(5), spacingMs(10), spacingMs(11), spacingMs(120), spacingMs(86_400)]).toEqual([5_000, 5_000, 5_500, 60_000, 43_200_000]);
  });

  it('accepts the first result of a given check, drops the next ones until its spacing has passed, then accepts again', () => {
    const gate = new CheckResultGate();
    gate.synced(1, [{ id: 7, runInterval: 60 }]);
    expect(gate.admit(1, 7, T0)).toBe('accept');
    expect(gate.admit(1, 7, T0 + 1)).toBe('drop');
    expect(gate.admit(1, 7, T0 + 29_999)).toBe('drop');
    expect(gate.admit(1, 7, T0 + 30_000)).toBe('accept');
    // another check has its own spacing; a check not given is unknown (not a drop)
    gate.synced(1, [{ id: 7, runInterval: 60 }, { id: 8, runInterval: 5 }]);
    expect(gate.admit(1, 8, T0 + 30_001)).toBe('accept');
    expect(gate.admit(1, 7, T0 + 30_001)).toBe('drop');
    expect(gate.admit(1, 9, T0 + 30_001)).toBe('unknown');
    expect(gate.admit(2, 7, T0 + 30_001)).toBe('unknown');
    expect(gate.takeDrops()).toEqual(new Map([[1, 3]]));
    expect(gate.takeDrops()).toEqual(new Map());
  });

  it('keeps the spacing over a reconnect, and starts it over for a check whose definition changed', () => {
    const gate = new CheckResultGate();
    gate.synced(1, [{ id: 7, runInterval: 60 }]);
    expect(gate.admit(1, 7, T0)).toBe('accept');
    gate.ungiven(1); // the connection closed: nothing is given until the next checks.sync
    expect(gate.admit(1, 7, T0 + 40_000)).toBe('unknown');
    gate.synced(1, [{ id: 7, runInterval: 60 }]);
    expect(gate.admit(1, 7, T0 + 1_000)).toBe('drop');
    gate.synced(1, [{ id: 7, runInterval: 60, settings: { threshold_percent: 5 } } as { id: number; runInterval: number }]);
    expect(gate.admit(1, 7, T0 + 2_000)).toBe('accept');
  });

  it(`closes on the drop that makes more than ${MAX_DROPS_PER_MINUTE} in a minute, not before; older drops do not count`, () => {
    const gate = new CheckResultGate();
    gate.synced(1, [{ id: 7, runInterval: 86_400 }]);
    expect(gate.admit(1, 7, T0)).toBe('accept');
    for (let i = 1; i <= MAX_DROPS_PER_MINUTE; i++) expect(gate.admit(1, 7, T0 + i)).toBe('drop');
    expect(gate.admit(1, 7, T0 + 101)).toBe('close');
    // 100 drops spread over more than a minute never close
    const slow = new CheckResultGate();
    slow.synced(1, [{ id: 7, runInterval: 86_400 }]);
    slow.admit(1, 7, T0);
    const step = DROP_WINDOW_MS / 90;
    expect(Array.from({ length: 300 }, (_, i) => slow.admit(1, 7, T0 + 1 + Math.round(i * step)))).not.toContain('close');
  });

  it('accepts every result of a given check when not spaced (tests of something else), and forgets agents gone whose spacing ran out', () => {
    const open = new CheckResultGate(false);
    open.synced(1, [{ id: 7, runInterval: 60 }]);
    expect([open.admit(1, 7, T0), open.admit(1, 7, T0), open.admit(1, 9, T0)]).toEqual(['accept', 'accept', 'unknown']);
    const gate = new CheckResultGate();
    gate.synced(1, [{ id: 7, runInterval: 60 }]);
    gate.admit(1, 7, T0);
    gate.prune(T0 + 1_000, () => false);
    expect(gate.size()).toBe(1); // its spacing still runs: a reconnect must not reset it
    gate.prune(T0 + 30_000, () => true);
    expect(gate.size()).toBe(1); // held here
    gate.prune(T0 + 30_000, () => false);
    expect(gate.size()).toBe(0);
  });
});
