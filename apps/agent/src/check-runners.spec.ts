import { cap, cpuPercent, describeTcp, drivePath, evaluateAbove, evaluateDisk, icmpUnavailable, parsePingTime, parseScState, pingArgs, runCheck, scriptMoreInfo, validTarget, winsvc } from './check-runners';
import { CheckScheduler, nextDelayMs, validDefinitions } from './checks';
import { CheckDefinition, CheckResultMessage } from '@app/protocol';

const GB = 1024 ** 3;

describe('reference agent checks, pure parts', () => {
  it('diskspace: fails below the free threshold and says how much is free', () => {
    expect(evaluateDisk('/', 12.3 * GB, 100 * GB, 10)).toEqual({ status: 'passing', moreInfo: '/: 12.3 GB free of 100.0 GB (12.3 %), threshold 10 %' });
    expect(evaluateDisk('C:', 9.6 * GB, 100 * GB, 10)).toEqual({ status: 'failing', moreInfo: 'C:: 9.6 GB free of 100.0 GB (9.6 %), threshold 10 %' });
    expect(evaluateDisk('/', 10 * GB, 100 * GB, 10).status).toBe('passing');
    expect(evaluateDisk('/', 0, 0, 10).status).toBe('failing');
  });

  it('diskspace: takes drive letters on Windows and absolute paths elsewhere, nothing else', () => {
    expect(drivePath('/', 'linux')).toBe('/');
    expect(drivePath('/mnt/my data', 'linux')).toBe('/mnt/my data');
    expect(drivePath('c:', 'win32')).toBe('C:\\');
    expect(drivePath('C:', 'linux')).toBeNull();
    expect(drivePath('relative', 'linux')).toBeNull();
    expect(drivePath('/a\nb', 'linux')).toBeNull();
    expect(drivePath(42, 'linux')).toBeNull();
  });

  it('cpuload and memory: fail above the threshold', () => {
    const t = (user: number, idle: number) => ({ times: { user, nice: 0, sys: 0, idle, irq: 0 } });
    expect(cpuPercent([t(100, 100), t(0, 0)], [t(150, 150), t(100, 0)])).toBe(75);
    expect(cpuPercent([t(1, 1)], [t(1, 1)])).toBe(0);
    expect(evaluateAbove('CPU load', 75, 90)).toEqual({ status: 'passing', moreInfo: 'CPU load 75.0 %, threshold 90 %' });
    expect(evaluateAbove('memory used', 91.25, 90)).toEqual({ status: 'failing', moreInfo: 'memory used 91.3 %, threshold 90 %' });
  });

  it('ping: builds one-packet arguments, reads the time, and knows when ICMP is not available', () => {
    expect(pingArgs('10.0.0.1', 'linux')).toEqual(['-c', '1', '-W', '2', '10.0.0.1']);
    expect(pingArgs('gw', 'win32')).toEqual(['-n', '1', '-w', '2000', 'gw']);
    expect(parsePingTime('64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.045 ms')).toBe(0.045);
    expect(parsePingTime('Reply from 10.0.0.1: bytes=32 time<1ms TTL=128')).toBe(1);
    expect(parsePingTime('Antwort von 10.0.0.1: Bytes=32 Zeit=3ms TTL=64')).toBe(3);
    expect(parsePingTime('1 packets transmitted, 0 received')).toBeNull();
    expect(icmpUnavailable('ENOENT', '')).toBe(true);
    expect(icmpUnavailable(2, 'ping: socket: Operation not permitted')).toBe(true);
    expect(icmpUnavailable(1, '1 packets transmitted, 0 received, 100% packet loss')).toBe(false);
  });

  it('ping: never passes an option or a shell word as the target', () => {
    expect(validTarget('example.com')).toBe('example.com');
    expect(validTarget('fe80::1')).toBe('fe80::1');
    expect(validTarget('-c')).toBeNull();
    expect(validTarget('a;rm -rf /')).toBeNull();
    expect(validTarget('$(id)')).toBeNull();
    expect(validTarget('')).toBeNull();
  });

  it('ping over TCP: a connection or a refusal passes (the host answered), silence or no name fails; says why ICMP was not used', () => {
    expect(describeTcp([{ port: 443, outcome: 'connected', ms: 3 }], 'no ping command')).toEqual({ status: 'passing', moreInfo: 'TCP 443: connected in 3 ms (ICMP not available: no ping command)' });
    expect(describeTcp([{ port: 443, outcome: 'refused', ms: 1 }], 'x').moreInfo).toBe('TCP 443: connection refused in 1 ms: the host is up (ICMP not available: x)');
    expect(describeTcp([{ port: 443, outcome: 'no answer', ms: 3000 }, { port: 80, outcome: 'no answer', ms: 3000 }], 'x')).toEqual({ status: 'failing', moreInfo: 'TCP 443, 80: no answer (ICMP not available: x)' });
    expect(describeTcp([{ port: 443, outcome: 'unresolved', ms: 1, detail: 'ENOTFOUND' }], 'x').status).toBe('failing');
  });

  it('script: more_info is the return code and the tail of the output, capped', () => {
    expect(scriptMoreInfo({ retcode: 3, stdout: 'disk full\n', stderr: '', timedOut: false }, 30)).toBe('retcode 3: disk full');
    expect(scriptMoreInfo({ retcode: 0, stdout: '', stderr: '', timedOut: false }, 30)).toBe('retcode 0');
    expect(scriptMoreInfo({ retcode: null, stdout: 'a', stderr: 'b', timedOut: true }, 30)).toBe('timed out after 30 s: a\nb');
    const long = scriptMoreInfo({ retcode: 1, stdout: `${'x'.repeat(5000)}END`, stderr: '', timedOut: false }, 30);
    expect(long.length).toBeLessThanOrEqual(2000);
    expect(long).toMatch(/^retcode 1: ….*END$/);
    expect(cap('y'.repeat(3000))).toHaveLength(2000);
  });

  it('winsvc: reads sc query; elsewhere it is pending, not supported', async () => {
    expect(parseScState('SERVICE_NAME: Spooler\n        TYPE               : 110  WIN32_OWN_PROCESS\n        STATE              : 4  RUNNING\n')).toBe('RUNNING');
    expect(parseScState('[SC] EnumQueryServicesStatus:OpenService FAILED 1060')).toBeNull();
    expect(await winsvc({ service_name: 'Spooler' }, 'linux')).toEqual({ status: 'pending', moreInfo: 'not supported on this platform' });
  });

  it('runs a check that is not known as pending, and a bad setting as failing with the reason', async () => {
    expect((await runCheck({ id: 1, checkType: 'smart' as never, name: 'x', runInterval: 60, settings: {} })).status).toBe('pending');
    expect(await runCheck({ id: 1, checkType: 'memory', name: 'x', runInterval: 60, settings: { threshold_percent: 'high' } })).toEqual({ status: 'failing', moreInfo: expect.stringContaining('threshold_percent') });
    expect(await runCheck({ id: 1, checkType: 'diskspace', name: 'x', runInterval: 60, settings: { drive: '/no/such/mount-xyz', threshold_percent: 10 } })).toEqual({ status: 'failing', moreInfo: '/no/such/mount-xyz: no such drive or mount point' });
  });
});

describe('reference agent check scheduler', () => {
  const def = (id: number, extra: Partial<CheckDefinition> = {}): CheckDefinition => ({ id, checkType: 'memory', name: `c${id}`, runInterval: 60, settings: { threshold_percent: 90 }, ...extra });
  const flush = () => new Promise((r) => setImmediate(r));

  it('runs new and changed checks at once, keeps unchanged ones, drops removed ones, and never runs one check twice at once', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const sent: CheckResultMessage[] = [];
      const started: number[] = [];
      const release: Array<() => void> = [];
      const s = new CheckScheduler((r) => sent.push(r), {
        random: () => 0.5,
        run: (d) => {
          started.push(d.id);
          return new Promise((resolve) => release.push(() => resolve({ status: 'passing', moreInfo: String(d.settings.threshold_percent) })));
        },
      });
      s.sync([def(1), def(2)]);
      expect(started).toEqual([1, 2]);
      s.sync([def(1), def(2)]); // unchanged: nothing new
      expect(started).toEqual([1, 2]);
      s.sync([def(1, { settings: { threshold_percent: 50 } })]); // 1 changed while running, 2 removed
      expect(started).toEqual([1, 2]); // the changed one waits for the run in progress
      expect(s.ids).toEqual([1]);
      release.splice(0).forEach((r) => r());
      await flush();
      await flush();
      expect(sent).toEqual([]); // results of definitions the server no longer has are dropped
      expect(started).toEqual([1, 2, 1]);
      release.splice(0).forEach((r) => r());
      await flush();
      expect(sent).toEqual([{ type: 'check.result', checkId: 1, status: 'passing', moreInfo: '50' }]);
      jest.advanceTimersByTime(59_999); // 60 s, no jitter at random 0.5
      expect(started).toEqual([1, 2, 1]);
      jest.advanceTimersByTime(1);
      expect(started).toEqual([1, 2, 1, 1]);
      s.stopAll();
      release.splice(0).forEach((r) => r());
      await flush();
      expect(sent).toHaveLength(1);
      jest.advanceTimersByTime(120_000);
      expect(started).toHaveLength(4);
    } finally {
      jest.useRealTimers();
    }
  });

  it('waits runInterval ±10 % and keeps only definitions it can schedule', () => {
    expect(nextDelayMs(120, () => 0)).toBe(108_000);
    expect(nextDelayMs(120, () => 1)).toBe(132_000);
    expect(nextDelayMs(Number.NaN, () => 0.5)).toBe(120_000);
    expect(validDefinitions([def(1), { id: 'x' }, null, { id: 2 }])).toEqual([def(1)]);
    expect(validDefinitions('nope')).toEqual([]);
  });
});
