import { backoffMs, channelUrl, reconnectDelayMs, RESTART_ATTEMPTS } from './channel';
import { resultMessage } from './handlers/script-run';
import { changedFacts, hardwareId, heartbeatFacts, parseDf, parseIoregUuid, parseRegMachineGuid } from './facts';
import { Chunk, interpreterFor, OutputCoalescer, runScript } from './run-script';

describe('reference agent, pure parts', () => {
  it('backs off 1 s doubling to 60 s, ±20 %', () => {
    expect([0, 1, 2, 5, 6, 30].map((a) => backoffMs(a, () => 0.5))).toEqual([1_000, 2_000, 4_000, 32_000, 60_000, 60_000]);
    expect(backoffMs(0, () => 0)).toBe(800);
    expect(backoffMs(10, () => 1)).toBe(72_000);
  });

  it('after the server shuts down (1001), retries at a random 1–5 s for a while, then backs off from 8 s', () => {
    for (let a = 0; a < RESTART_ATTEMPTS; a++) {
      expect(reconnectDelayMs(a, true, () => 0)).toBe(1_000);
      expect(reconnectDelayMs(a, true, () => 1)).toBe(5_000);
    }
    expect([RESTART_ATTEMPTS, RESTART_ATTEMPTS + 1, RESTART_ATTEMPTS + 4].map((a) => reconnectDelayMs(a, true, () => 0.5))).toEqual([8_000, 16_000, 60_000]);
    // any other drop: the usual ladder
    expect([0, 1, 2].map((a) => reconnectDelayMs(a, false, () => 0.5))).toEqual([1_000, 2_000, 4_000]);
  });

  it('derives the channel URL from the server URL', () => {
    expect(channelUrl('http://127.0.0.1:3000')).toBe('ws://127.0.0.1:3000/agent/v1/ws');
    expect(channelUrl('https://rmm.example.com/base/')).toBe('wss://rmm.example.com/base/agent/v1/ws');
  });

  it('reads real file systems from df -kP, mount points with spaces included', () => {
    const out = [
      'Filesystem     1024-blocks      Used Available Capacity Mounted on',
      'overlay          102687672  51343836  46084576      53% /',
      'tmpfs                65536         0     65536       0% /dev',
      '/dev/sda1        102687672  51343836  46084576      53% /mnt/my data',
      '/dev/sdb1              100       100         0     100% /full',
    ].join('\n');
    expect(parseDf(out)).toEqual([
      { device: '/', free: '43.9 GB', total: '97.9 GB', percent: 53 },
      { device: '/mnt/my data', free: '43.9 GB', total: '97.9 GB', percent: 53 },
      { device: '/full', free: '0.0 MB', total: '0.1 MB', percent: 100 },
    ]);
  });

  it('knows the interpreters, and says why there is none', () => {
    expect(interpreterFor('powershell', 'linux')).toMatchObject({ command: 'pwsh' });
    expect(interpreterFor('python', 'linux')).toMatchObject({ command: 'python3' });
    expect(interpreterFor('cmd', 'linux')).toBe('cmd scripts run only on Windows');
    expect(interpreterFor('cmd', 'win32')).toMatchObject({ command: 'cmd.exe' });
    expect(interpreterFor('zsh', 'linux')).toBe('unknown shell: zsh');
  });

  it('answers ok:false for an unknown shell', async () => {
    expect(await runScript({ shell: 'zsh', body: 'true', args: [], timeoutSeconds: 5 })).toEqual({ ok: false, error: 'unknown shell: zsh' });
  });

  it('keeps a result message under the 1 MiB limit', () => {
    const big = 'x'.repeat(900 * 1024);
    const text = resultMessage('r1', { ok: true, result: { retcode: 0, stdout: big, stderr: big, executionTime: 1, timedOut: false } });
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024 * 1024);
    expect(JSON.parse(text)).toMatchObject({ type: 'result', id: 'r1', ok: true, result: { retcode: 0 } });
  });

  describe('output coalescing', () => {
    const harness = (options: { max?: number; cap?: number } = {}) => {
      const sent: Chunk[] = [];
      const timers: Array<{ fn: () => void; live: boolean }> = [];
      const c = new OutputCoalescer((x) => sent.push(x), {
        ...options,
        setTimer: (fn) => {
          const t = { fn, live: true };
          timers.push(t);
          return t;
        },
        clearTimer: (t) => ((t as { live: boolean }).live = false),
      });
      const tick = (): void => timers.filter((t) => t.live).forEach((t) => ((t.live = false), t.fn()));
      return { c, sent, tick };
    };

    it('holds small writes together until the timer fires, then numbers chunks from 0', () => {
      const { c, sent, tick } = harness();
      c.push('stdout', Buffer.from('a'));
      c.push('stdout', Buffer.from('b'));
      expect(sent).toEqual([]);
      tick();
      c.push('stdout', Buffer.from('c'));
      tick();
      expect(sent).toEqual([
        { stream: 'stdout', chunk: 'ab', seq: 0 },
        { stream: 'stdout', chunk: 'c', seq: 1 },
      ]);
    });

    it('keeps the order across streams, sends at the size limit, and whatever is held at the end', () => {
      const { c, sent } = harness({ max: 4 });
      c.push('stdout', Buffer.from('12'));
      c.push('stderr', Buffer.from('e'));
      c.push('stdout', Buffer.from('abcdefghij'));
      c.end();
      expect(sent).toEqual([
        { stream: 'stdout', chunk: '12', seq: 0 },
        { stream: 'stderr', chunk: 'e', seq: 1 },
        { stream: 'stdout', chunk: 'abcd', seq: 2 },
        { stream: 'stdout', chunk: 'efgh', seq: 3 },
        { stream: 'stdout', chunk: 'ij', seq: 4 },
      ]);
    });

    it('decodes UTF-8 split across writes whole, and stops streaming a stream past its cap', () => {
      const { c, sent } = harness({ cap: 5 });
      const euro = Buffer.from('€'); // 3 bytes
      c.push('stdout', euro.subarray(0, 1));
      c.push('stdout', euro.subarray(1));
      c.push('stdout', Buffer.from('xyz'));
      c.end();
      expect(sent).toEqual([{ stream: 'stdout', chunk: '€xy', seq: 0 }]);
    });
  });

  it('sends every fact first, then only what changed', () => {
    const facts = { hostname: 'vm', plat: 'linux' as const, version: '0.1.0', total_ram: 8, disks: [{ device: '/', free: '1 GB', total: '2 GB', percent: 50 }], logged_in_username: 'alice' };
    expect(changedFacts(undefined, facts)).toEqual(facts);
    expect(changedFacts(facts, { ...facts })).toBeUndefined();
    expect(changedFacts(facts, { ...facts, logged_in_username: 'bob', disks: [{ device: '/', free: '0.5 GB', total: '2 GB', percent: 75 }] })).toEqual({
      logged_in_username: 'bob',
      disks: [{ device: '/', free: '0.5 GB', total: '2 GB', percent: 75 }],
    });
    // a renamed machine: its new name goes with the next heartbeat (the server keeps it as os_hostname)
    expect(changedFacts(facts, { ...facts, hostname: 'vm-renamed' })).toEqual({ hostname: 'vm-renamed' });
  });

  it("heartbeat facts carry the machine's hostname and not monitoring_type", () => {
    const all = { hostname: 'vm', plat: 'linux' as const, version: '0.1.0', monitoring_type: 'workstation' as const };
    expect(heartbeatFacts(all)).toEqual({ hostname: 'vm', plat: 'linux', version: '0.1.0' });
  });

  describe('hardware id', () => {
    it('reads IOPlatformUUID from ioreg and MachineGuid from reg query', () => {
      const ioreg = '+-o J314sAP  <class IOPlatformExpertDevice, id 0x100000209, registered>\n    {\n      "IOPlatformSerialNumber" = "C02XXXXX"\n      "IOPlatformUUID" = "6F9B8A4E-1C2D-4E5F-8A9B-0C1D2E3F4A5B"\n    }\n';
      expect(parseIoregUuid(ioreg)).toBe('6F9B8A4E-1C2D-4E5F-8A9B-0C1D2E3F4A5B');
      expect(parseIoregUuid('')).toBeUndefined();
      const reg = '\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Cryptography\r\n    MachineGuid    REG_SZ    0b6c1f0e-8d2a-4c3b-9e4f-5a6b7c8d9e0f\r\n\r\n';
      expect(parseRegMachineGuid(reg)).toBe('0b6c1f0e-8d2a-4c3b-9e4f-5a6b7c8d9e0f');
      expect(parseRegMachineGuid('ERROR: The system was unable to find the specified registry key or value.')).toBeUndefined();
    });

    it('sends the hex SHA-256 of the raw id, never the id; nothing when there is none', () => {
      expect(hardwareId('4c2a9f0e8b7d4e1f9a3b5c6d7e8f9012')).toMatch(/^[0-9a-f]{64}$/);
      expect(hardwareId('4c2a9f0e8b7d4e1f9a3b5c6d7e8f9012')).not.toContain('4c2a9f0e8b7d4e1f9a3b5c6d7e8f9012');
      expect(hardwareId('test')).toBe('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08');
      expect(hardwareId(undefined)).toBeUndefined();
    });
  });
});
