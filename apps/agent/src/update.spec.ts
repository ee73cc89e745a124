import { generateKeyPairSync, sign } from 'node:crypto';
import { heartbeatFacts } from './facts';
import { parseUpdateKey } from './state';
import { serviceDefinitions } from './uninstall';
import {
  binaryPaths,
  checkOffer,
  deadlineSeconds,
  failureText,
  MAX_DOWNLOAD_BYTES,
  resolveDownloadUrl,
  startupAction,
  TRIAL_CONNECTED,
  TRIAL_ENV,
  Updater,
  updateSignedText,
  verifyUpdateSignature,
} from './update';

const keys = generateKeyPairSync('ed25519');
const raw = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
const SHA = 'ab'.repeat(32);
const signed = (target: string, version: string, sha256: string, key = keys.privateKey) =>
  sign(null, Buffer.from(updateSignedText(target, version, sha256)), key).toString('base64');

describe('agent self-update, pure parts', () => {
  it('signs `rmm-agent-update:v1:<target>:<version>:<sha256>`', () => {
    expect(updateSignedText('linux-amd64', '0.1.1', SHA)).toBe(`rmm-agent-update:v1:linux-amd64:0.1.1:${SHA}`);
  });

  it('verifies an Ed25519 signature with the raw 32-byte key, and nothing else', () => {
    const offer = { target: 'linux-amd64', version: '0.1.1', sha256: SHA, signature: signed('linux-amd64', '0.1.1', SHA) };
    expect(verifyUpdateSignature(raw, offer)).toBe(true);
    expect(verifyUpdateSignature(raw, { ...offer, version: '0.1.2' })).toBe(false);
    expect(verifyUpdateSignature(raw, { ...offer, target: 'linux-arm64' })).toBe(false);
    expect(verifyUpdateSignature(raw, { ...offer, sha256: 'cd'.repeat(32) })).toBe(false);
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(verifyUpdateSignature(raw, { ...offer, signature: signed('linux-amd64', '0.1.1', SHA, other) })).toBe(false);
    expect(verifyUpdateSignature(raw, { ...offer, signature: 'not base64!' })).toBe(false);
    expect(verifyUpdateSignature(raw, { ...offer, signature: '' })).toBe(false);
    expect(verifyUpdateSignature(Buffer.alloc(31), offer)).toBe(false); // not a key: false, never a throw
  });

  it('takes an update key only as the padded base64 of 32 bytes', () => {
    expect(parseUpdateKey(raw.toString('base64'))).toEqual(raw);
    expect(parseUpdateKey(raw.toString('base64').replace(/=$/, ''))).toBeUndefined();
    expect(parseUpdateKey(Buffer.alloc(31).toString('base64'))).toBeUndefined();
    expect(parseUpdateKey(Buffer.alloc(33).toString('base64'))).toBeUndefined();
    expect(parseUpdateKey(raw.toString('base64url'))).toBeUndefined();
    expect(parseUpdateKey('')).toBeUndefined();
  });

  it("resolves a download path under the server's URL, and refuses another origin", () => {
    const href = (server: string, url: string) => {
      const r = resolveDownloadUrl(server, url);
      return typeof r === 'string' ? r : r.href;
    };
    expect(href('http://127.0.0.1:3000', '/agent/v1/download/linux-amd64')).toBe('http://127.0.0.1:3000/agent/v1/download/linux-amd64');
    expect(href('https://rmm.example.com/base/', '/agent/v1/download/linux-amd64')).toBe('https://rmm.example.com/base/agent/v1/download/linux-amd64');
    expect(href('https://rmm.example.com/base', 'agent/v1/download/x')).toBe('https://rmm.example.com/base/agent/v1/download/x');
    expect(href('https://rmm.example.com', 'https://rmm.example.com/agent/v1/download/x')).toBe('https://rmm.example.com/agent/v1/download/x');
    expect(href('https://rmm.example.com', 'https://evil.example.com/x')).toBe("refused a download from https://evil.example.com: not the agent's server (https://rmm.example.com)");
    expect(href('https://rmm.example.com', '//evil.example.com/x')).toMatch(/^refused a download from https:\/\/evil\.example\.com/);
    expect(href('https://rmm.example.com', 'http://rmm.example.com/x')).toMatch(/^refused/); // another scheme
    expect(href('https://rmm.example.com', 'https://rmm.example.com:8443/x')).toMatch(/^refused/); // another port
    expect(href('https://rmm.example.com', 'file:///etc/passwd')).toBe('not an http(s) URL: file:///etc/passwd');
  });

  it('checks the offer\'s fields (a version never holds a colon: the signed text reads one way only)', () => {
    const good = { version: '0.1.1', target: 'linux-amd64', url: '/x', sha256: SHA, size: 1000, signature: 'c2ln' };
    expect(checkOffer(good)).toBeUndefined();
    expect(checkOffer({ ...good, version: '0.1:1' })).toBe('invalid version');
    expect(checkOffer({ ...good, target: 'plan9-mips' })).toBe('invalid target');
    expect(checkOffer({ ...good, sha256: SHA.toUpperCase() })).toBe('invalid sha256');
    expect(checkOffer({ ...good, size: 0 })).toBe('invalid size');
    expect(checkOffer({ ...good, size: 1.5 })).toBe('invalid size');
    expect(checkOffer({ ...good, size: MAX_DOWNLOAD_BYTES + 1 })).toMatch(/^too large/);
    expect(checkOffer({ ...good, url: 5 as unknown as string })).toBe('invalid url');
  });

  it('keeps update.failed errors printable and at most 1000 characters', () => {
    expect(failureText('a\nb\u0000c\u001b[31m')).toBe('a b c [31m');
    expect(failureText('€'.repeat(2000))).toHaveLength(1000);
    expect(failureText('\n')).toBe('unknown error');
  });

  it('reads RMM_AGENT_UPDATE_DEADLINE_SECONDS, else 120', () => {
    expect(deadlineSeconds({})).toBe(120);
    expect(deadlineSeconds({ RMM_AGENT_UPDATE_DEADLINE_SECONDS: '5' })).toBe(5);
    expect(deadlineSeconds({ RMM_AGENT_UPDATE_DEADLINE_SECONDS: 'soon' })).toBe(120);
    expect(deadlineSeconds({ RMM_AGENT_UPDATE_DEADLINE_SECONDS: '0' })).toBe(120);
  });

  it('names the files beside the running binary', () => {
    expect(binaryPaths('/opt/rmm-agent/bin/rmm-agent')).toEqual({
      running: '/opt/rmm-agent/bin/rmm-agent',
      staged: '/opt/rmm-agent/bin/rmm-agent.download',
      previous: '/opt/rmm-agent/bin/rmm-agent.previous',
      failed: '/opt/rmm-agent/bin/rmm-agent.failed',
    });
    expect(binaryPaths('/p/bin/rmm-agent.exe').previous).toBe('/p/bin/rmm-agent.previous.exe');
  });

  describe('update.json', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    const pending = { from: '0.1.0', to: '0.1.1', deadline: '2026-11-26T12:02:00.000Z' };

    it('at start: the new version confirms within what is left of the deadline; a rollback is reported', () => {
      expect(startupAction(undefined, '0.1.1', now, 120)).toEqual({ kind: 'none' });
      expect(startupAction(pending, '0.1.1', now, 120)).toEqual({ kind: 'confirm', from: '0.1.0', to: '0.1.1', inMs: 120_000 });
      expect(startupAction(pending, '0.1.1', now + 100_000, 120)).toMatchObject({ inMs: 20_000 });
      expect(startupAction(pending, '0.1.1', now + 500_000, 120)).toMatchObject({ inMs: 0 }); // restarted past it: roll back now
      expect(startupAction(pending, '0.1.1', now, 5)).toMatchObject({ inMs: 5_000 }); // never longer than the setting
      expect(startupAction({ rolled_back: '0.1.1', error: '0.1.1 did not connect within 120 s' }, '0.1.0', now, 120)).toEqual({
        kind: 'report',
        version: '0.1.1',
        error: '0.1.1 did not connect within 120 s',
      });
      expect(startupAction(pending, '0.1.0', now, 120)).toEqual({ kind: 'report', version: '0.1.1', error: '0.1.1 was installed, but 0.1.0 started instead' });
    });
  });

  it('heartbeat facts carry update_target only when given', () => {
    const facts = { hostname: 'vm', plat: 'linux' as const, version: '0.1.0', monitoring_type: 'workstation' as const };
    expect(heartbeatFacts(facts, 'linux-amd64')).toEqual({ hostname: 'vm', plat: 'linux', version: '0.1.0', update_target: 'linux-amd64' });
    expect(heartbeatFacts(facts, undefined)).not.toHaveProperty('update_target');
  });

  it('uninstall never stops the service from inside it (the run process exits 0 instead, which no manager restarts)', () => {
    const user = { uid: 501, home: '/Users/a' };
    const commands = (p: NodeJS.Platform, self: boolean) => serviceDefinitions(p, self, user).map((d) => [d.file ?? d.query?.args.join(' '), d.remove.map((c) => c.args.join(' ')), d.last?.args.join(' ')]);
    expect(commands('linux', false)).toEqual([['/etc/systemd/system/rmm-agent.service', ['disable --now rmm-agent'], undefined]]);
    expect(commands('linux', true)).toEqual([['/etc/systemd/system/rmm-agent.service', ['disable rmm-agent'], undefined]]);
    expect(commands('darwin', false)).toEqual([
      ['/Library/LaunchDaemons/com.rmm.agent.plist', ['bootout system/com.rmm.agent'], undefined],
      ['/Users/a/Library/LaunchAgents/com.rmm.agent.plist', ['bootout gui/501/com.rmm.agent'], undefined],
    ]);
    expect(commands('darwin', true)[0]).toEqual(['/Library/LaunchDaemons/com.rmm.agent.plist', [], 'bootout system/com.rmm.agent']);
    expect(commands('win32', false)[0]).toEqual(['query rmm-agent', ['stop rmm-agent', 'delete rmm-agent'], undefined]);
    expect(commands('win32', true)[0]).toEqual(['query rmm-agent', ['delete rmm-agent'], undefined]);
    expect(serviceDefinitions('freebsd', false, user)).toEqual([]);
  });

  it('U1: a process on trial (the new version, supervised) tells its supervisor once, at its first hello, and takes no offer', async () => {
    expect([TRIAL_ENV, TRIAL_CONNECTED]).toEqual(['RMM_AGENT_UPDATE_TRIAL', 'rmm-agent-trial: connected']);
    const told: string[] = [];
    const lines: string[] = [];
    const updater = new Updater({
      prefix: '/nonexistent/prefix',
      server: 'http://127.0.0.1:1',
      key: raw,
      version: '0.1.1',
      target: 'linux-amd64',
      execPath: '/nonexistent/prefix/bin/rmm-agent.download',
      log: (l) => lines.push(l),
      restart: () => told.push('restart'),
      pause: async () => void told.push('pause'),
      resume: () => told.push('resume'),
      trial: true,
      onTrialConnected: () => told.push('connected'),
    });
    const sent: unknown[] = [];
    const send = (m: unknown): boolean => sent.push(m) > 0;
    updater.onHello(send);
    updater.onHello(send); // a reconnect of the trial: said once
    await updater.offer({ type: 'update.available', version: '0.1.2', target: 'linux-amd64', url: '/x', sha256: SHA, size: 1, signature: signed('linux-amd64', '0.1.2', SHA) }, send);
    expect(told).toEqual(['connected']);
    expect(sent).toEqual([]);
    expect(lines).toContain('ignored update.available: this process is a new version on trial');
  });
});
