import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentMessage, UpdateAvailableMessage } from '@app/protocol/agent';
import { startTrial, superviseTrial, TRIAL_CONNECTED, Updater, UpdaterOptions, updateSignedText } from '../../../apps/agent/src/update';

const keys = generateKeyPairSync('ed25519');
const raw = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
const SHA = 'ab'.repeat(32);
const signed = (target: string, version: string, sha256: string) => sign(null, Buffer.from(updateSignedText(target, version, sha256)), keys.privateKey).toString('base64');

/**
 * U1: the running version supervises the new one. Real processes: a small shell "binary" served over HTTP plays the
 * new version (it answers --version, then does what the test gives it as `run`); the Updater downloads it, checks
 * it, and runs it on trial.
 */
(process.platform === 'win32' ? describe.skip : describe)('U1: the new version on trial, supervised by the running one', () => {
  let work: string;
  let http: Server;
  let served: Buffer = Buffer.alloc(0);
  let base: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rmm-update-trial-'));
    http = createServer((_req, res) => res.writeHead(200, { 'Content-Length': served.length }).end(served));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => http.close(r));
    rmSync(work, { recursive: true, force: true });
  });

  /** A "binary" of 0.1.1 whose `run` is `body` (TRIAL_ENV must be set, its pid in PREFIX/trial.pid). */
  const script = (body: string): Buffer =>
    Buffer.from(`#!/bin/sh\nif [ "$1" = --version ]; then echo 0.1.1; exit 0; fi\n[ "$RMM_AGENT_UPDATE_TRIAL" = 1 ] || exit 3\necho $$ > "$3/trial.pid"\n${body}\n`);

  const setup = (name: string, body: string, deadline = '5') => {
    const prefix = join(work, name);
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    writeFileSync(join(prefix, 'bin', 'rmm-agent'), 'the old binary', { mode: 0o755 });
    served = script(body);
    const sha256 = createHash('sha256').update(served).digest('hex');
    const msg: UpdateAvailableMessage = { type: 'update.available', version: '0.1.1', target: 'linux-amd64', url: '/agent/v1/download/linux-amd64', sha256, size: served.length, signature: signed('linux-amd64', '0.1.1', sha256) };
    const calls: string[] = [];
    const sent: AgentMessage[] = [];
    const lines: string[] = [];
    let connected = true;
    const o: UpdaterOptions = {
      prefix,
      server: base,
      key: raw,
      version: '0.1.0',
      target: 'linux-amd64',
      execPath: join(prefix, 'bin', 'rmm-agent'),
      log: (l) => lines.push(l),
      restart: () => calls.push('restart'),
      pause: async () => {
        calls.push(`pause (${existsSync(join(prefix, 'trial.pid')) ? 'trial running' : 'no trial'})`);
        connected = false;
      },
      resume: () => {
        calls.push('resume');
        connected = true;
      },
      env: { ...process.env, RMM_AGENT_UPDATE_DEADLINE_SECONDS: deadline },
    };
    const send = (m: AgentMessage): boolean => connected && sent.push(m) > 0;
    return { prefix, msg, calls, sent, lines, send, updater: new Updater(o) };
  };
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('connected: disconnects first, swaps only after the trial said so (the previous kept), ends the trial, restarts', async () => {
    const u = setup('good', `echo "${TRIAL_CONNECTED} 0.1.1"\ncat >/dev/null\necho "$RMM_AGENT_UPDATE_TRIAL" > "$3/trial.ended"`);
    await u.updater.offer(u.msg, u.send);
    expect(u.calls).toEqual(['pause (no trial)', 'restart']);
    expect(readFileSync(join(u.prefix, 'bin', 'rmm-agent'))).toEqual(served);
    expect(readFileSync(join(u.prefix, 'bin', 'rmm-agent.previous'), 'utf8')).toBe('the old binary');
    expect(existsSync(join(u.prefix, 'bin', 'rmm-agent.download'))).toBe(false);
    expect(readFileSync(join(u.prefix, 'trial.ended'), 'utf8')).toBe('1\n'); // it ended because its stdin closed
    expect(existsSync(join(u.prefix, 'update.json'))).toBe(false);
    expect(u.sent).toEqual([]);
  });

  it('exits before connecting: nothing swapped, reconnects, and update.failed says how it ended (kept in update.json until sent)', async () => {
    const u = setup('crash', 'exit 7');
    await u.updater.offer(u.msg, u.send);
    expect(u.calls).toEqual(['pause (no trial)', 'resume']);
    expect(readFileSync(join(u.prefix, 'bin', 'rmm-agent'), 'utf8')).toBe('the old binary');
    expect(existsSync(join(u.prefix, 'bin', 'rmm-agent.previous'))).toBe(false);
    expect(existsSync(join(u.prefix, 'bin', 'rmm-agent.download'))).toBe(false);
    const error = '0.1.1 exited with code 7 before connecting';
    expect(JSON.parse(readFileSync(join(u.prefix, 'update.json'), 'utf8'))).toEqual({ rolled_back: '0.1.1', error });
    u.updater.onHello(u.send); // the next hello of the reconnected channel
    expect(u.sent).toEqual([{ type: 'update.failed', version: '0.1.1', error }]);
    expect(existsSync(join(u.prefix, 'update.json'))).toBe(false);
  });

  it('says nothing within the deadline (a hang): killed, then reported as not connected', async () => {
    const u = setup('hang', 'exec sleep 60', '1');
    await u.updater.offer(u.msg, u.send);
    const pid = Number(readFileSync(join(u.prefix, 'trial.pid'), 'utf8'));
    expect(alive(pid)).toBe(false);
    expect(u.calls).toEqual(['pause (no trial)', 'resume']);
    u.updater.onHello(u.send);
    expect(u.sent).toEqual([{ type: 'update.failed', version: '0.1.1', error: '0.1.1 did not connect within 1 s' }]);
    expect(readFileSync(join(u.prefix, 'bin', 'rmm-agent'), 'utf8')).toBe('the old binary');
  });

  it('a confirmation of another version, or one before it runs as a trial, is no confirmation', async () => {
    const dir = join(work, 'other');
    mkdirSync(dir);
    const file = join(dir, 'fake');
    writeFileSync(file, `#!/bin/sh\necho "${TRIAL_CONNECTED} 0.1.2"\necho "x ${TRIAL_CONNECTED} 0.1.1"\nexec sleep 60\n`, { mode: 0o755 });
    expect(await superviseTrial(startTrial(file, dir), '0.1.1', 1_000)).toEqual({ ok: false, error: '0.1.1 did not connect within 1 s' });
    expect(await superviseTrial(startTrial(join(dir, 'missing'), dir), '0.1.1', 5_000)).toEqual({ ok: false, error: expect.stringMatching(/^0\.1\.1 could not be started: .*ENOENT/) });
  });

  it('a process on trial takes no offer and touches no file; it tells its supervisor once, at its first hello', async () => {
    const prefix = join(work, 'trial');
    mkdirSync(join(prefix, 'bin'), { recursive: true });
    writeFileSync(join(prefix, 'bin', 'rmm-agent.download'), 'me, on trial');
    writeFileSync(join(prefix, 'update.json'), JSON.stringify({ rolled_back: '0.0.9', error: 'x' }));
    const told: string[] = [];
    const lines: string[] = [];
    const updater = new Updater({
      prefix,
      server: base,
      key: raw,
      version: '0.1.1',
      target: 'linux-amd64',
      execPath: join(prefix, 'bin', 'rmm-agent.download'),
      log: (l) => lines.push(l),
      restart: () => told.push('restart'),
      pause: async () => void told.push('pause'),
      resume: () => told.push('resume'),
      trial: true,
      onTrialConnected: () => told.push('connected'),
    });
    updater.start();
    const sent: AgentMessage[] = [];
    updater.onHello((m) => sent.push(m) > 0);
    updater.onHello((m) => sent.push(m) > 0);
    await updater.offer({ type: 'update.available', version: '0.1.2', target: 'linux-amd64', url: '/x', sha256: SHA, size: 1, signature: 'x' }, (m) => sent.push(m) > 0);
    expect(told).toEqual(['connected']);
    expect(sent).toEqual([]);
    expect(lines).toContain('ignored update.available: this process is a new version on trial');
    expect(readFileSync(join(prefix, 'bin', 'rmm-agent.download'), 'utf8')).toBe('me, on trial');
    expect(existsSync(join(prefix, 'update.json'))).toBe(true);
  });
});
