import { PingRounds } from './ping-rounds';

describe('PingRounds (the agent channel ping schedule)', () => {
  /** Runs `ticks` ticks; `answers(conn)` says whether a connection answers the pings it gets. */
  const run = (rounds: PingRounds<string>, ticks: number, answers: (c: string, tick: number) => boolean) => {
    const pinged: Array<[number, string]> = [];
    const dropped: Array<[number, string]> = [];
    for (let t = 0; t < ticks; t++) {
      const { ping, drop } = rounds.visit();
      for (const c of drop) dropped.push([t, c]);
      for (const c of ping) {
        pinged.push([t, c]);
        if (answers(c, t)) rounds.answered(c);
      }
    }
    return { pinged, dropped };
  };

  it('pings every connection once per round, at the same offset each round, spread over the slices', () => {
    const rounds = new PingRounds<string>(3);
    for (const c of ['a', 'b', 'c', 'd']) rounds.add(c);
    const { pinged, dropped } = run(rounds, 6, () => true);
    expect(pinged).toEqual([
      [0, 'a'], [0, 'd'], [1, 'b'], [2, 'c'],
      [3, 'a'], [3, 'd'], [4, 'b'], [5, 'c'],
    ]);
    expect(dropped).toEqual([]);
  });

  it('drops a connection at the visit after an unanswered ping: between one and two rounds after its last answer', () => {
    const slices = 30; // 1 s ticks, a 30 s round
    const rounds = new PingRounds<string>(slices);
    for (let i = 0; i < 100; i++) rounds.add(`c${i}`);
    // every connection freezes at tick 45 (answers before, never after)
    const frozenAt = 45;
    const { dropped } = run(rounds, 200, (_c, t) => t < frozenAt);
    expect(dropped).toHaveLength(100);
    for (const [t] of dropped) {
      expect(t - frozenAt).toBeGreaterThanOrEqual(slices);
      expect(t - frozenAt).toBeLessThan(2 * slices);
    }
    expect(rounds.size).toBe(0);
  });

  it('forgets a closed connection: never pinged again, and a late pong changes nothing', () => {
    const rounds = new PingRounds<string>(2);
    rounds.add('a');
    rounds.add('b');
    expect(rounds.visit().ping).toEqual(['a']);
    rounds.remove('a');
    rounds.answered('a');
    const { pinged, dropped } = run(rounds, 4, () => true);
    expect(pinged).toEqual([[0, 'b'], [2, 'b']]);
    expect(dropped).toEqual([]);
  });
});
