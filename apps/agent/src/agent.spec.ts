import { backoffMs, channelUrl, resultMessage } from './channel';
import { parseDf } from './facts';
import { interpreterFor, runScript } from './run-script';

describe('reference agent, pure parts', () => {
  it('backs off 1 s doubling to 60 s, ±20 %', () => {
    expect([0, 1, 2, 5, 6, 30].map((a) => backoffMs(a, () => 0.5))).toEqual([1_000, 2_000, 4_000, 32_000, 60_000, 60_000]);
    expect(backoffMs(0, () => 0)).toBe(800);
    expect(backoffMs(10, () => 1)).toBe(72_000);
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
});
