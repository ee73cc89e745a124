import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as plist from 'plist';
import { DeploymentEntity } from '@app/entities';
import { buildInstaller, launchdPlist, systemdUnit } from '../../../apps/api/src/rmm/fleet/deployments/installer';

/**
 * The service definitions the installers write, checked by the tools that read them: systemd's own verifier,
 * a real plist parser, and PowerShell's grammar (tree-sitter-powershell; there is no PowerShell on this
 * machine, so the Windows installer is parsed, not run: what it does on Windows is not tested here).
 */
const KEY = Buffer.alloc(32, 9).toString('base64');
const deployment = Object.assign(new DeploymentEntity(), {
  uuid: '0b8c4a4e-8f4e-4a8e-9c0e-6d1f2a3b4c5d',
  arch: 'amd64',
  expiresAt: new Date('2026-11-24T12:00:00Z'),
});
const script = async (platform: 'linux' | 'windows', requested: string | null = null): Promise<string> =>
  (await buildInstaller(deployment, 'https://rmm.example.test', platform, KEY, undefined, requested)).body as string;

/** The here-document `cat > <target> <<EOF` … `EOF` of the shell installer, as sh writes it with PREFIX set. */
function hereDocument(sh: string, target: string, prefix: string): string {
  const lines = sh.split('\n');
  const start = lines.findIndex((l) => l.trim().startsWith(`cat > ${target} <<EOF`));
  expect(start).toBeGreaterThan(-1);
  const end = lines.findIndex((l, i) => i > start && l === 'EOF');
  const doc = lines.slice(start + 1, end + 1).join('\n');
  return execFileSync('sh', ['-c', `PREFIX=$1\ncat <<EOF\n${doc}\n`, 'sh', prefix], { encoding: 'utf8' });
}

describe('systemd unit', () => {
  const analyze = '/usr/bin/systemd-analyze';
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rmm-unit-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the binary as a service with the contract restart policy', () => {
    const unit = systemdUnit('/opt/rmm-agent');
    expect(unit).toContain('\nExecStart="/opt/rmm-agent/bin/rmm-agent" run --service --prefix "/opt/rmm-agent"\n');
    for (const line of ['After=network-online.target', 'Wants=network-online.target', 'Restart=on-failure', 'RestartSec=5', 'RestartPreventExitStatus=4 64', 'WantedBy=multi-user.target']) {
      expect(unit.split('\n')).toContain(line);
    }
  });

  it('is what the shell installer writes for its prefix', async () => {
    const sh = await script('linux');
    expect(hereDocument(sh, '/etc/systemd/system/rmm-agent.service', '/opt/rmm agent')).toBe(systemdUnit('/opt/rmm agent'));
    expect(hereDocument(sh, '/etc/systemd/system/rmm-agent.service', '/srv/x+y_z-1.2')).toBe(systemdUnit('/srv/x+y_z-1.2'));
  });

  const verify = (unit: string): { status: number | null; output: string } => {
    const file = join(dir, 'rmm-agent.service');
    writeFileSync(file, unit);
    const r = spawnSync(analyze, ['verify', file], { encoding: 'utf8' });
    return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
  };

  // systemd-analyze ships with the systemd package; without it there is nothing to run the check with.
  const it_ = existsSync(analyze) ? it : it.skip;
  if (!existsSync(analyze)) process.stdout.write(`installer-services: ${analyze} is missing (apt-get install systemd): systemd-analyze verify skipped\n`);

  // (systemd refuses an executable path with a quote or backslash whatever the escaping; the installer gives no service to such a prefix)
  it_('passes systemd-analyze verify without a warning, the binary in place (a space and a % in the prefix too)', () => {
    for (const name of ['prefix', 'pre fix %h']) {
      const prefix = join(dir, name);
      mkdirSync(join(prefix, 'bin'), { recursive: true });
      copyFileSync('/bin/true', join(prefix, 'bin', 'rmm-agent'));
      chmodSync(join(prefix, 'bin', 'rmm-agent'), 0o755);
      expect(verify(systemdUnit(prefix))).toEqual({ status: 0, output: '' });
    }
  });

  it_('the check can fail: a missing binary, an unknown key', () => {
    const prefix = join(dir, 'absent');
    expect(verify(systemdUnit(prefix))).toMatchObject({ status: 1, output: expect.stringContaining('is not executable') });
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    copyFileSync('/bin/true', join(prefix, 'bin', 'rmm-agent'));
    expect(verify(systemdUnit(prefix).replace('RestartSec=5', 'RestartSec=5\nRestartSecs=5')).output).toContain("Unknown key 'RestartSecs'");
  });
});

describe('launchd plist', () => {
  it('parses to the job com.rmm.agent running the binary as a service, kept alive unless it exits 0', () => {
    const job = plist.parse(launchdPlist('/usr/local/rmm-agent')) as Record<string, unknown>;
    expect(job).toEqual({
      Label: 'com.rmm.agent',
      ProgramArguments: ['/usr/local/rmm-agent/bin/rmm-agent', 'run', '--service', '--prefix', '/usr/local/rmm-agent'],
      RunAtLoad: true,
      KeepAlive: { SuccessfulExit: false },
      StandardErrorPath: '/usr/local/rmm-agent/agent.log',
    });
  });

  it('escapes what XML would read as markup', () => {
    const job = plist.parse(launchdPlist('/opt/a&b <c>')) as { ProgramArguments: string[] };
    expect(job.ProgramArguments).toEqual(['/opt/a&b <c>/bin/rmm-agent', 'run', '--service', '--prefix', '/opt/a&b <c>']);
  });

  it('is what the shell installer writes for its prefix', async () => {
    const sh = await script('linux');
    expect(hereDocument(sh, '"$PLIST"', '/usr/local/rmm-agent')).toBe(launchdPlist('/usr/local/rmm-agent'));
  });
});

describe('the PowerShell installer, parsed by the PowerShell grammar', () => {
  /** What PowerShell's parser would refuse (ERROR or MISSING nodes, with their line), and the commands called. */
  const syntax = (text: string): { problems: string[]; commands: string[] } =>
    JSON.parse(execFileSync(process.execPath, [join(__dirname, '../../utils/powershell-syntax.js')], { input: text, encoding: 'utf8' })) as { problems: string[]; commands: string[] };
  const problems = (text: string): string[] => syntax(text).problems;
  const commands = (text: string): string[] => syntax(text).commands;

  it('parses without an error, with a hostile requested hostname too', async () => {
    expect(problems(await script('windows'))).toEqual([]);
    expect(problems(await script('windows', "ACME'01 ‘x’ $(calc) `n \"q\""))).toEqual([]);
  });

  it('downloads and checks the binary, registers it with the update key, runs it from a scheduled task (not a service)', async () => {
    const ps = await script('windows');
    expect(ps).toContain(`$RmmUpdateKey = '${KEY}'`);
    expect(ps).toContain('--update-key $RmmUpdateKey');
    expect(ps).toContain('"$RmmServer/agent/v1/download/$Target"');
    expect(ps).toContain("$response.Headers['X-Checksum-Sha256']");
    // the binary under --service (exit 10 after an update: the task starts it again), as SYSTEM at start-up
    expect(ps).toContain('New-ScheduledTaskAction -Execute $Exe -Argument "run --service --prefix `"$Prefix`""');
    expect(ps).toContain("New-ScheduledTaskPrincipal -UserId 'SYSTEM'");
    expect(ps).toContain('-RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1)');
    expect(commands(ps)).toEqual(expect.arrayContaining(['Invoke-WebRequest', 'Get-FileHash', 'Register-ScheduledTask', 'Start-ScheduledTask', 'Stop-ScheduledTask']));
    // a Bun executable does not speak the service control protocol: no New-Service (it would fail with error 1053)
    expect(commands(ps)).not.toContain('New-Service');
  });

  it('the check can fail: an unclosed string or block is found', () => {
    expect(problems('if ($a) { Write-Host "x }\n')).not.toEqual([]);
    expect(problems('function F { $x = @{ a = 1\n')).not.toEqual([]);
  });
});
