import { ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from '../utils/sql';
import { ROOT, run } from '../utils/processes';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/** The reference agent (dist/agent/rmm-agent.js) as a device runs it, registering again. */
const AGENT_JS = join(ROOT, 'dist/agent/rmm-agent.js');
const ADMIN = 'reenroll-agent-admin-key-0123456789';
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** The machine id the agent reads on Linux (undefined where this machine has none). */
function machineId(): string | undefined {
  for (const file of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      const id = readFileSync(file, 'utf8').trim();
      if (id && id !== 'uninitialized') return id;
    } catch {
      /* the next one */
    }
  }
  return undefined;
}
const MACHINE_ID = process.platform === 'linux' ? machineId() : undefined;

describe('reference agent registering again (real processes)', () => {
  let t: TestApp;
  let work: string;
  const admin = { 'X-API-KEY': ADMIN };
  const children: ChildProcess[] = [];
  const env = (hostname: string): NodeJS.ProcessEnv => ({ ...process.env, RMM_AGENT_HOSTNAME: hostname });

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_AGENT_HEARTBEAT_SECONDS: '1' });
    work = mkdtempSync(join(tmpdir(), 'rmm-reenroll-e2e-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await new Promise((r) => c.once('exit', r));
      }
    }
  });
  afterAll(async () => {
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const token = async (): Promise<string> => {
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const res = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    expect(res.status).toBe(201);
    return res.body.uuid;
  };
  const register = async (hostname: string, prefix: string, server = t.url) =>
    run([AGENT_JS, 'register', '--server', server, '--token', await token(), '--prefix', prefix], env(hostname), 20_000);

  it('keeps its agent id when registered again on the same prefix (the state file proves it), and the old run process stops on 4001', async () => {
    const prefix = join(work, 'same');
    const first = await register('reenroll-same-01', prefix);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\n$/) });
    const agentId = first.stdout.trim();

    const old = spawn(process.execPath, [AGENT_JS, 'run', '--prefix', prefix], { env: env('reenroll-same-01'), cwd: ROOT });
    children.push(old);
    let out = '';
    old.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => old.on('exit', (code) => r(code)));
    await until(`agent online\n${out}`, async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'online');

    const again = await register('reenroll-same-01', prefix);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    expect(again.stderr).toContain('re-enrolled');
    expect(again.stderr + again.stdout).not.toContain('agt_');
    expect(await exited).toBe(4);
    expect(out).toContain('4001');
  }, 60_000);

  it('is refused (exit 5, the server\'s reason and what to do) on a fresh prefix when nothing proves it is the enrolled installation; nothing changes', async () => {
    const first = await register('reenroll-other-01', join(work, 'other-a'));
    expect(first.code).toBe(0);
    const agentId = first.stdout.trim();
    const [before] = await sql<{ secret_hash: string }>(t.db.url, `SELECT secret_hash FROM agents WHERE id = $1`, [Number(agentId)]);

    const other = await register('reenroll-other-01', join(work, 'other-b'));
    expect(other.code).toBe(5);
    expect(other.stderr).toContain('hostname already enrolled by another device');
    expect(other.stderr).toContain('allow re-enrollment');
    expect(other.stderr).toContain('POST /api/v3/agents/{id}/reenroll/');
    expect(() => readFileSync(join(work, 'other-b', 'state.json'))).toThrow();
    const [after] = await sql<{ secret_hash: string }>(t.db.url, `SELECT secret_hash FROM agents WHERE id = $1`, [Number(agentId)]);
    expect(after.secret_hash).toBe(before.secret_hash);
  }, 60_000);

  (MACHINE_ID ? it : it.skip)('N1: is refused on a fresh prefix of the same machine (the hashed /etc/machine-id, stored as a fact, proves nothing) until an operator allows re-enrollment', async () => {
    const first = await register('reenroll-hw-01', join(work, 'hw-a'));
    expect(first.code).toBe(0);
    const agentId = first.stdout.trim();
    const [row] = await sql<{ hardware_hash: string }>(t.db.url, `SELECT hardware_hash FROM agents WHERE id = $1`, [Number(agentId)]);
    expect(row.hardware_hash).toBe(sha256(sha256(MACHINE_ID!)));
    // any local user can read the machine id: the same machine without the state file is refused
    const refused = await register('reenroll-hw-01', join(work, 'hw-b'));
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('hostname already enrolled by another device');
    const alerts = await t.http.get('/api/v3/alerts/').query({ agent: agentId, alert_type: 'enrollment_conflict' }).set(admin);
    expect(alerts.body).toEqual([expect.objectContaining({ message: expect.stringContaining('sent the same hardware id') })]);
    // the operator allows it: the same command now takes the agent over
    expect((await t.http.post(`/api/v3/agents/${agentId}/reenroll/`).set(admin)).status).toBe(200);
    const again = await register('reenroll-hw-01', join(work, 'hw-b'));
    expect(again).toMatchObject({ code: 0, stdout: first.stdout });
    expect(again.stderr).toContain('re-enrolled');
  }, 60_000);
});

describe('reference agent registration against a scripted server', () => {
  let server: Server;
  let base: string;
  let dir: string;
  const received: Array<Record<string, unknown>> = [];
  /** The answers to give, in order; the last one repeats. */
  let answers: Array<(res: ServerResponse) => void> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rmm-reenroll-scripted-'));
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push(JSON.parse(body) as Record<string, unknown>);
        (answers.length > 1 ? answers.shift()! : answers[0])(res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    received.length = 0;
  });

  const ok = (res: ServerResponse) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ agent_id: '7', agent_secret: 'agt_new', client: 1, site: 1, reenrolled: true }));
  const limited = (res: ServerResponse) => res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"detail":"rate limited"}');
  const register = (prefix: string) =>
    run([AGENT_JS, 'register', '--server', base, '--token', '00000000-0000-4000-8000-000000000001', '--prefix', prefix], { ...process.env, RMM_AGENT_HOSTNAME: 'scripted-01' }, 30_000);
  const writeState = (prefix: string, state: Record<string, string>) => {
    mkdirSync(prefix, { recursive: true });
    writeFileSync(join(prefix, 'state.json'), JSON.stringify(state), { mode: 0o600 });
  };

  it('sends the previous installation\'s agent id and secret from its state file to the server that issued them, and the hashed machine id', async () => {
    answers = [ok];
    const prefix = join(dir, 'same-server');
    writeState(prefix, { server: base, agent_id: '7', agent_secret: 'agt_old' });
    expect((await register(prefix)).code).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ hostname: 'scripted-01', agent_id: '7', agent_secret: 'agt_old' });
    if (MACHINE_ID) expect(received[0].hardware_id).toBe(sha256(MACHINE_ID));
    if (MACHINE_ID) expect(JSON.stringify(received[0])).not.toContain(MACHINE_ID);
    expect(JSON.parse(readFileSync(join(prefix, 'state.json'), 'utf8'))).toEqual({ server: base, agent_id: '7', agent_secret: 'agt_new' });
  });

  it('never sends a secret issued by another server', async () => {
    answers = [ok];
    const prefix = join(dir, 'other-server');
    writeState(prefix, { server: 'https://other-rmm.example.com', agent_id: '7', agent_secret: 'agt_of_another_server' });
    expect((await register(prefix)).code).toBe(0);
    expect(received[0]).not.toHaveProperty('agent_secret');
    expect(received[0]).not.toHaveProperty('agent_id');
  });

  it('waits as Retry-After says and tries again when the deployment\'s registrations per minute are spent (429)', async () => {
    answers = [limited, limited, ok];
    const r = await register(join(dir, 'limited'));
    expect(r.code).toBe(0);
    expect(received).toHaveLength(3);
    expect(r.stderr).toContain('registration rate limited: retrying');
  });

  it('gives up after a few 429 answers, exit 1 with the server\'s detail', async () => {
    answers = [limited];
    const r = await register(join(dir, 'limited-for-good'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HTTP 429: rate limited');
    expect(received).toHaveLength(5);
  }, 30_000);
});
