import { FixedClock } from '../../../common/clock';
import { nextAfterClaim, nextRun } from './schedule';

const at = (iso: string): Date => new Date(iso);

/** The error nextRun throws for `schedule` (fails the test when it throws none). */
function errorOf(schedule: string, from = at('2026-01-01T00:00:00Z')): { message: string; fields: { field: string; message: string }[] } {
  try {
    nextRun(schedule, from);
  } catch (err) {
    return err as { message: string; fields: { field: string; message: string }[] };
  }
  throw new Error(`nextRun(${JSON.stringify(schedule)}) did not throw`);
}

describe('nextRun', () => {
  it.each([
    ['*/5 * * * *', '2026-01-01T00:01:00Z', '2026-01-01T00:05:00.000Z'],
    ['* * * * *', '2026-01-01T00:01:30Z', '2026-01-01T00:02:00.000Z'],
    ['0 3 * * *', '2026-01-01T04:00:00Z', '2026-01-02T03:00:00.000Z'],
    ['0 3 * * *', '2026-01-01T02:59:59Z', '2026-01-01T03:00:00.000Z'],
    ['30 6 * * 1', '2026-01-01T04:00:00Z', '2026-01-05T06:30:00.000Z'], // 2026-01-01 is a Thursday: the next Monday
    ['0 0 1 * *', '2026-01-15T12:00:00Z', '2026-02-01T00:00:00.000Z'],
    ['0 0 29 2 *', '2026-01-01T00:00:00Z', '2028-02-29T00:00:00.000Z'], // the next leap day
    ['15 10 * 12 *', '2026-12-31T10:15:00Z', '2027-12-01T10:15:00.000Z'],
  ])('runs %s, from %s, next at %s', (schedule, from, next) => {
    expect(nextRun(schedule, at(from)).toISOString()).toBe(next);
  });

  it('reads the expression in UTC, whatever the local time zone of the server', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(nextRun('0 3 * * *', at('2026-07-01T00:00:00Z')).toISOString()).toBe('2026-07-01T03:00:00.000Z');
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  });

  it('answers a time strictly after `from`, even when `from` is exactly on the schedule', () => {
    const from = at('2026-01-01T00:05:00.000Z');
    expect(nextRun('*/5 * * * *', from).toISOString()).toBe('2026-01-01T00:10:00.000Z');
    expect(nextRun('0 3 * * *', at('2026-01-01T03:00:00.000Z')).toISOString()).toBe('2026-01-02T03:00:00.000Z');
  });

  it('always answers a later time than `from`, on whole minutes', () => {
    const from = at('2026-03-14T15:09:26.535Z');
    for (const schedule of ['* * * * *', '*/7 * * * *', '0 * * * *', '59 23 31 12 *', '0 0 * * 0']) {
      const next = nextRun(schedule, from);
      expect(next.getTime()).toBeGreaterThan(from.getTime());
      expect(next.getUTCSeconds()).toBe(0);
      expect(next.getUTCMilliseconds()).toBe(0);
    }
  });

  it('ignores surrounding and repeated white space between the fields', () => {
    expect(nextRun('  0   3 *\t* *  ', at('2026-01-01T04:00:00Z')).toISOString()).toBe('2026-01-02T03:00:00.000Z');
  });

  it('does not change `from`', () => {
    const from = at('2026-01-01T00:01:00Z');
    nextRun('*/5 * * * *', from);
    expect(from.toISOString()).toBe('2026-01-01T00:01:00.000Z');
  });

  it.each([
    ['* * * *', 4],
    ['0', 1],
    ['', 0],
    ['   ', 0],
    ['@daily', 1],
    ['0 0 1 1 * 2030 1', 7],
  ])('refuses %j: a cron expression has 5 or 6 fields, got %i', (schedule, got) => {
    const err = errorOf(schedule);
    expect(err.message).toBe('validation error');
    expect(err.fields).toEqual([
      { field: 'schedule', message: `a cron expression has 5 fields (minute hour day month weekday) or 6 (second minute hour day month weekday), got ${got}` },
    ]);
  });

  it.each([
    ['61 * * * *', /61/],
    ['* 24 * * *', /24/],
    ['* * 32 * *', /32/],
    ['* * * 13 *', /13/],
    ['every day at noon ok', /invalid characters/i],
    ['*/0 * * * *', /./],
    ['0 0 30 2 *', /./], // 30 February never comes
    ['60 * * * * *', /60/], // seconds run 0-59
    ['*/0 * * * * *', /./],
    ['0 0 1 1 * 2030', /2030/], // six fields are second-first: 2030 is no weekday
  ])('refuses the invalid expression %j, naming schedule with the parser\'s reason', (schedule, reason) => {
    const err = errorOf(schedule);
    expect(err.message).toBe('validation error');
    expect(err.fields).toHaveLength(1);
    expect(err.fields[0].field).toBe('schedule');
    expect(err.fields[0].message).toMatch(/^invalid cron expression: /);
    expect(err.fields[0].message).toMatch(reason);
  });

  describe('six fields: the first is seconds', () => {
    it.each([
      ['*/2 * * * * *', '2026-01-01T00:00:00.500Z', '2026-01-01T00:00:02.000Z'],
      ['*/2 * * * * *', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:04.000Z'],
      ['* * * * * *', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z'],
      ['30 * * * * *', '2026-01-01T00:00:31Z', '2026-01-01T00:01:30.000Z'],
      ['0 0 3 * * *', '2026-01-01T04:00:00Z', '2026-01-02T03:00:00.000Z'], // the same as 0 3 * * *
      ['15 30 6 * * 1', '2026-01-01T04:00:00Z', '2026-01-05T06:30:15.000Z'],
    ])('runs %s, from %s, next at %s', (schedule, from, next) => {
      expect(nextRun(schedule, at(from)).toISOString()).toBe(next);
    });

    it('lands on whole seconds of the grid', () => {
      const from = at('2026-03-14T15:09:26.535Z');
      const next = nextRun('*/2 * * * * *', from);
      expect(next.toISOString()).toBe('2026-03-14T15:09:28.000Z');
    });
  });
});

describe('nextAfterClaim (the catch-up rule)', () => {
  it('on time: the next due time after the one claimed', () => {
    const clock = new FixedClock(at('2026-01-01T00:05:00.200Z'));
    expect(nextAfterClaim('*/5 * * * *', at('2026-01-01T00:05:00Z'), clock.now()).toISOString()).toBe('2026-01-01T00:10:00.000Z');
  });

  it('after a server was down for hours: one run for the missed due time, then back on schedule (no burst)', () => {
    const clock = new FixedClock(at('2026-01-01T00:05:00Z'));
    const due = nextRun('*/5 * * * *', clock.now()); // 00:10
    clock.advance(3 * 60 * 60 * 1000 + 42_000); // the server comes back at 03:05:42
    const next = nextAfterClaim('*/5 * * * *', due, clock.now());
    expect(next.toISOString()).toBe('2026-01-01T03:10:00.000Z');
    expect(next.getTime()).toBeGreaterThan(clock.now().getTime());
  });

  it('six fields: a claim late by 7 s skips the due times it missed', () => {
    const clock = new FixedClock(at('2026-01-01T00:00:09.300Z'));
    expect(nextAfterClaim('*/2 * * * * *', at('2026-01-01T00:00:02Z'), clock.now()).toISOString()).toBe('2026-01-01T00:00:10.000Z');
  });

  it('a claim made before its due time (a clock behind) still moves strictly past the due time', () => {
    expect(nextAfterClaim('*/2 * * * * *', at('2026-01-01T00:00:02Z'), at('2026-01-01T00:00:01Z')).toISOString()).toBe('2026-01-01T00:00:04.000Z');
  });
});
