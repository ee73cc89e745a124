import { CHECK_TYPES, CheckType } from '@app/entities';
import { CHECK_SETTINGS, defaultCheckName, settingsErrors } from './check-settings';

/** The fields named by the errors of `settings` for `type`. */
const fieldsOf = (type: CheckType, settings: unknown): string[] => settingsErrors(type, settings).map((e) => e.field);

/** One valid settings object per type: the smallest a client can send. */
const MINIMAL: Record<CheckType, Record<string, unknown>> = {
  diskspace: { drive: 'C:', threshold_percent: 10 },
  ping: { target: '8.8.8.8' },
  cpuload: { threshold_percent: 90 },
  memory: { threshold_percent: 85 },
  winsvc: { service_name: 'Spooler' },
  script: { script: 1 },
  eventlog: { log_name: 'System' },
};

describe('settingsErrors', () => {
  it('knows every check type, and no other', () => {
    expect(Object.keys(CHECK_SETTINGS).sort()).toEqual([...CHECK_TYPES].sort());
  });

  it.each(CHECK_TYPES.map((t) => [t]))('accepts the minimal settings of a %s check', (type) => {
    expect(settingsErrors(type, MINIMAL[type])).toEqual([]);
  });

  it.each([
    ['diskspace', ['settings.drive', 'settings.threshold_percent']],
    ['ping', ['settings.target']],
    ['cpuload', ['settings.threshold_percent']],
    ['memory', ['settings.threshold_percent']],
    ['winsvc', ['settings.service_name']],
    ['script', ['settings.script']],
    ['eventlog', ['settings.log_name']],
  ] as [CheckType, string[]][])('requires the settings of a %s check: empty settings name %j', (type, required) => {
    expect(settingsErrors(type, {})).toEqual(required.map((field) => ({ field, message: 'is required' })));
  });

  it.each(CHECK_TYPES.map((t) => [t]))('refuses settings of a %s check that are not an object (null, an array, a string)', (type) => {
    for (const bad of [null, undefined, [], ['C:'], 'C:', 42]) {
      expect(settingsErrors(type, bad)).toEqual([{ field: 'settings', message: 'must be an object' }]);
    }
  });

  it.each(CHECK_TYPES.map((t) => [t]))('refuses a key a %s check does not know, naming the known ones', (type) => {
    const errors = settingsErrors(type, { ...MINIMAL[type], threshold: 5 });
    expect(errors).toEqual([
      { field: 'settings.threshold', message: `not a setting of ${type} checks (known: ${Object.keys(CHECK_SETTINGS[type]).join(', ')})` },
    ]);
  });

  it('treats a key given as undefined as absent (required ones are still required)', () => {
    expect(settingsErrors('ping', { target: undefined })).toEqual([{ field: 'settings.target', message: 'is required' }]);
    expect(settingsErrors('script', { script: 3, args: undefined, timeout: undefined })).toEqual([]);
  });

  it('reports every problem at once, unknown keys first', () => {
    expect(fieldsOf('diskspace', { drive: 'nope', size: 1 })).toEqual(['settings.size', 'settings.drive', 'settings.threshold_percent']);
  });

  describe('diskspace', () => {
    it.each(['C:', 'z:', '/', '/var/lib/postgresql'])('accepts the drive %j', (drive) => {
      expect(settingsErrors('diskspace', { drive, threshold_percent: 10 })).toEqual([]);
    });

    it.each(['C', 'C:\\', 'CD:', 'not a drive', 'var/lib', '/with space', '', 7])('refuses the drive %j, saying what a drive is', (drive) => {
      expect(settingsErrors('diskspace', { drive, threshold_percent: 10 })).toEqual([
        { field: 'settings.drive', message: 'must be a drive letter such as "C:" or a mount point such as "/"' },
      ]);
    });

    it('takes a free-space threshold from 1 to 99 percent, whole numbers only', () => {
      for (const ok of [1, 50, 99]) expect(settingsErrors('diskspace', { drive: 'C:', threshold_percent: ok })).toEqual([]);
      for (const bad of [0, 100, -5, 10.5, '10', null]) {
        expect(settingsErrors('diskspace', { drive: 'C:', threshold_percent: bad })).toEqual([
          { field: 'settings.threshold_percent', message: 'must be a whole number from 1 to 99' },
        ]);
      }
    });
  });

  describe('ping', () => {
    it.each(['8.8.8.8', 'gw', 'host-1.example.com', '2001:db8::1', 'under_score'])('accepts the target %j', (target) => {
      expect(settingsErrors('ping', { target })).toEqual([]);
    });

    it('refuses a target with spaces or other characters, an empty one and one longer than 253 characters', () => {
      for (const target of ['two words', 'host;rm -rf', '', 'a'.repeat(254), 8, '-c', '--help']) {
        expect(settingsErrors('ping', { target })).toEqual([{ field: 'settings.target', message: 'must be a hostname or an IP address' }]);
      }
      expect(settingsErrors('ping', { target: 'a'.repeat(253) })).toEqual([]);
    });
  });

  describe.each(['cpuload', 'memory'] as const)('%s', (type) => {
    it('takes a threshold from 1 to 100 percent, whole numbers only', () => {
      for (const ok of [1, 100]) expect(settingsErrors(type, { threshold_percent: ok })).toEqual([]);
      for (const bad of [0, 101, 99.9, '90']) {
        expect(settingsErrors(type, { threshold_percent: bad })).toEqual([
          { field: 'settings.threshold_percent', message: 'must be a whole number from 1 to 100' },
        ]);
      }
    });
  });

  describe('winsvc', () => {
    it('takes a service name of 1 to 256 characters', () => {
      expect(settingsErrors('winsvc', { service_name: 'x'.repeat(256) })).toEqual([]);
      for (const bad of ['', 'x'.repeat(257), 5]) {
        expect(settingsErrors('winsvc', { service_name: bad })).toEqual([
          { field: 'settings.service_name', message: 'must be a string of 1 to 256 characters' },
        ]);
      }
    });
  });

  describe('script', () => {
    it('takes a script id, optional string args and an optional timeout of 1 to 300 seconds', () => {
      expect(settingsErrors('script', { script: 2_147_483_647, args: ['--quick', ''], timeout: 300 })).toEqual([]);
      expect(settingsErrors('script', { script: 1, args: [], timeout: 1 })).toEqual([]);
    });

    it('refuses a script id that is not a positive 32-bit whole number', () => {
      for (const bad of [0, -1, 2_147_483_648, 1.5, '3']) {
        expect(settingsErrors('script', { script: bad })).toEqual([
          { field: 'settings.script', message: 'must be a whole number from 1 to 2147483647' },
        ]);
      }
    });

    it('refuses args that are not a list of at most 100 strings of at most 4096 characters', () => {
      for (const args of ['-a', [1], ['ok', null], Array(101).fill('x'), ['x'.repeat(4097)]]) {
        expect(settingsErrors('script', { script: 1, args })).toEqual([{ field: 'settings.args', message: 'must be a list of strings' }]);
      }
      expect(settingsErrors('script', { script: 1, args: Array(100).fill('x'.repeat(4096)) })).toEqual([]);
    });

    it('refuses a timeout outside 1 to 300 seconds', () => {
      for (const timeout of [0, 301, 600, 2.5]) {
        expect(settingsErrors('script', { script: 1, timeout })).toEqual([{ field: 'settings.timeout', message: 'must be a whole number from 1 to 300' }]);
      }
    });
  });

  describe('eventlog', () => {
    it('takes one of the four logs, an optional event id, event type and search text', () => {
      for (const log_name of ['Application', 'System', 'Security', 'Setup']) expect(settingsErrors('eventlog', { log_name })).toEqual([]);
      expect(settingsErrors('eventlog', { log_name: 'System', event_id: 0, event_type: 'warning', search_text: 'disk' })).toEqual([]);
      expect(settingsErrors('eventlog', { log_name: 'System', event_id: 65535, event_type: 'information', search_text: 'x'.repeat(1000) })).toEqual([]);
    });

    it('refuses another log (names are case-sensitive), listing the allowed ones', () => {
      for (const log_name of ['Kernel', 'system', '']) {
        expect(settingsErrors('eventlog', { log_name })).toEqual([
          { field: 'settings.log_name', message: 'must be one of Application, System, Security, Setup' },
        ]);
      }
    });

    it('refuses an event id outside 0 to 65535, an unknown event type and an empty or too long search text', () => {
      expect(settingsErrors('eventlog', { log_name: 'System', event_id: 65536, event_type: 'fatal', search_text: '' })).toEqual([
        { field: 'settings.event_id', message: 'must be a whole number from 0 to 65535' },
        { field: 'settings.event_type', message: 'must be one of error, warning, information' },
        { field: 'settings.search_text', message: 'must be a string of 1 to 1000 characters' },
      ]);
      expect(fieldsOf('eventlog', { log_name: 'System', event_id: -1, search_text: 'x'.repeat(1001) })).toEqual(['settings.event_id', 'settings.search_text']);
    });
  });
});

describe('defaultCheckName', () => {
  it.each([
    ['diskspace', { drive: 'C:', threshold_percent: 10 }, 'Disk space C: below 10% free'],
    ['ping', { target: '8.8.8.8' }, 'Ping 8.8.8.8'],
    ['cpuload', { threshold_percent: 90 }, 'CPU load above 90%'],
    ['memory', { threshold_percent: 85 }, 'Memory use above 85%'],
    ['winsvc', { service_name: 'Spooler' }, 'Service Spooler'],
    ['script', { script: 12, timeout: 30 }, 'Script 12'],
    ['eventlog', { log_name: 'System' }, 'Event log System'],
    ['eventlog', { log_name: 'System', event_id: 7036 }, 'Event log System event 7036'],
    ['eventlog', { log_name: 'Application', event_id: 0 }, 'Event log Application event 0'],
  ] as [CheckType, Record<string, unknown>, string][])('names a %s check with settings %j "%s"', (type, settings, name) => {
    expect(defaultCheckName(type, settings)).toBe(name);
  });
});
