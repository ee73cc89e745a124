import type { FieldError } from '../../../common/errors/domain-error';
import { checkItems, normalizeExclusions, normalizeTargets, normalizeWindows, taskItems } from './policy-input';

const NOW = new Date('2026-11-28T12:00:00Z');

describe('policy bodies', () => {
  it('lowercases and dedupes tags, drops empty kinds, and names a bad tag by its place', () => {
    const errors: FieldError[] = [];
    expect(normalizeTargets({ tags_any: [' Finance ', 'finance', 'Büro 1:a.b_c-d'], clients: [3, 3], sites: [] }, errors)).toEqual({ tags_any: ['finance', 'büro 1:a.b_c-d'], clients: [3] });
    expect(errors).toEqual([]);
    normalizeTargets({ tags_all: ['ok', 'no/slash', 'x'.repeat(65)] }, errors);
    expect(errors.map((e) => e.field)).toEqual(['targets.tags_all[1]', 'targets.tags_all[2]']);
  });

  it('takes excluded agents as strings of digits and refuses ids no agent can have', () => {
    const errors: FieldError[] = [];
    expect(normalizeExclusions({ agents: ['42', '42', '7'] }, errors)).toEqual({ agents: [42, 7] });
    normalizeExclusions({ agents: ['9999999999', '0'] }, errors);
    expect(errors).toEqual([
      { field: 'exclude.agents', message: 'no agent 9999999999' },
      { field: 'exclude.agents', message: 'no agent 0' },
    ]);
  });

  it('keys checks as the merge does, names defaults as per-agent checks, and refuses a second item of a key', () => {
    const errors: FieldError[] = [];
    const items = checkItems(
      [
        { check_type: 'diskspace', settings: { drive: 'c:', threshold_percent: 10 } },
        { check_type: 'script', settings: { script: 5, args: ['-q'] }, name: ' Quick ' },
        { check_type: 'diskspace', settings: { drive: 'C:', threshold_percent: 20 } },
        { check_type: 'ping', settings: { target: '-oops' } },
      ],
      errors,
    );
    expect(items.map((i) => [i.key, i.position, i.name, i.scriptId, i.settings])).toEqual([
      ['diskspace:C:', 0, 'Disk space c: below 10% free', null, { drive: 'c:', threshold_percent: 10 }],
      ['script:5:["-q"]', 1, 'Quick', 5, { args: ['-q'] }],
    ]);
    expect(errors).toEqual([
      { field: 'checks[2]', message: 'has the same key (diskspace:C:) as checks[0]: one item per key' },
      { field: 'checks[3].settings.target', message: 'must be a hostname or an IP address' },
    ]);
  });

  it('validates task schedules with the scheduler\'s parser and keys tasks by script, args and schedule', () => {
    const errors: FieldError[] = [];
    const items = taskItems(
      [
        { name: 'a', script: 1, schedule: '0  3 * * *' },
        { name: 'b', script: 1, schedule: '0 3 * * *', args: [] },
        { name: 'c', script: 1, schedule: 'nightly' },
      ],
      NOW,
      errors,
    );
    expect(items.map((i) => i.key)).toEqual(['task:1:[]:0 3 * * *']);
    expect(errors.map((e) => e.field)).toEqual(['tasks[1]', 'tasks[2].schedule']);
  });

  it('wants a window of 5 cron fields in a real time zone', () => {
    const errors: FieldError[] = [];
    expect(normalizeWindows([{ schedule: ' 0 22 * * 6 ', duration_minutes: 60, timezone: 'Europe/Berlin' }], errors)).toEqual([{ schedule: '0 22 * * 6', duration_minutes: 60, timezone: 'Europe/Berlin' }]);
    normalizeWindows([{ schedule: '*/2 * * * * *', duration_minutes: 60, timezone: 'Nowhere/Land' }], errors);
    expect(errors.map((e) => e.field)).toEqual(['maintenance_windows[0].timezone', 'maintenance_windows[0].schedule']);
  });
});
