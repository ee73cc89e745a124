import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fakeUname } from '../utils/agent-binaries';
import { exec, Finished } from '../utils/processes';
import { ServerProcess, startServerProcess } from '../utils/server-process';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { until } from '../utils/wait';

jest.setTimeout(180_000);

const ADMIN = 'admin-key-for-deploy-token-logs-0123456789';
const HOSTNAME = 'n5-log-ws-01';

/**
 * N5 (issue 30, point 6): a deployment's uuid is the installer's credential (docs/enrolling.md: "treat the file
 * like a password"), yet every installer download was logged as `/deploy/<uuid>`. A full enrollment against the
 * real server process, every line it writes on stdout and stderr captured at debug level: the deployment made
 * over the API, the installer downloaded (the shell script, the PowerShell script, in capitals, an unknown
 * uuid), run on this machine (it fetches the agent and registers with the token), the agent started and online.
 * The whole log holds the uuid nowhere, and its redacted form (first 8 characters and `…`) is where the
 * downloads are logged.
 */
describe('N5: no deployment token in a log line', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;
  let work: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    work = mkdtempSync(join(tmpdir(), 'rmm-n5-'));
  });
  afterAll(async () => {
    for (const c of children) {
      if (c.exitCode === null && c.signalCode === null) {
        c.kill('SIGKILL');
        await new Promise((r) => c.once('close', r));
      }
    }
    await server?.stop();
    await db?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('N5: a full enrollment (deployment, installer downloads, registration, the agent online) logs the uuid only as its first 8 characters and …', async () => {
    const s = await startServerProcess({ DATABASE_URL: db.url, RMM_ADMIN_API_KEY: ADMIN, LOG_LEVEL: 'debug', RMM_AGENT_HEARTBEAT_SECONDS: '1' });
    server = s;
    const api = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
      const res = await fetch(`${s.url}${path}`, { method, headers: { 'X-API-KEY': ADMIN, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    };

    // The deployment, over the API.
    const client = await api('POST', '/api/v3/clients/', { name: 'Acme', site_name: 'HQ' });
    expect(client.status).toBe(201);
    const made = await api('POST', '/api/v3/agents/deployments/', { client: client.body.id, site: client.body.sites[0].id });
    expect(made.status).toBe(201);
    const uuid = made.body.uuid as string;
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    const downloadUrl = made.body.download_url as string;
    expect(downloadUrl).toContain(`/deploy/${uuid}`);

    // Downloads the probe made: the PowerShell script, capitals, and a uuid that names no deployment (404).
    expect((await fetch(`${downloadUrl}?platform=windows`)).status).toBe(200);
    expect((await fetch(`${s.url}/deploy/${uuid.toUpperCase()}`)).status).toBe(200);
    const unknown = '0badc0de-1111-4222-8333-444455556666';
    expect((await fetch(`${s.url}/deploy/${unknown}`)).status).toBe(404);

    // The installer, run on this machine: it downloads the agent and registers with the token.
    const riscv = fakeUname(work, 'Linux', 'riscv64'); // no binary for it: the Node.js agent, nothing to build
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${riscv}${delimiter}${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, RMM_AGENT_HOSTNAME: HOSTNAME };
    const script = await fetch(`${downloadUrl}?platform=linux`);
    expect(script.status).toBe(200);
    const file = join(work, 'installer.sh');
    writeFileSync(file, await script.text());
    const prefix = join(work, 'prefix');
    const inst: Finished = await exec('sh', [file, '--prefix', prefix, '--no-service'], { env, cwd: work, timeoutMs: 60_000, onSpawn: (c) => children.push(c) });
    expect(inst).toMatchObject({ code: 0 });
    expect(inst.stderr).toContain('registered as agent');

    // The agent runs and comes online.
    const agent = spawn(join(prefix, 'bin', 'rmm-agent'), ['run'], { env, cwd: work });
    children.push(agent);
    let agentLog = '';
    agent.stderr!.on('data', (c) => (agentLog += c));
    await until(`agent online\n${agentLog}`, async () => {
      const list = await api('GET', `/api/v3/agents/?hostname=${HOSTNAME}`);
      return list.body[0]?.status === 'online';
    }, 60_000);

    // Everything the server wrote up to its exit (its last lines included).
    expect(await s.stop()).toBe(0);
    server = undefined;
    const log = s.output();
    const lines = log.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(20);
    for (const token of [uuid, unknown]) {
      const leaked = lines.filter((l) => l.toLowerCase().includes(token));
      expect({ token, leaked }).toEqual({ token, leaked: [] });
      // nor its hex without dashes, nor its last 28 characters (a cut from the end)
      expect(log.toLowerCase()).not.toContain(token.replace(/-/g, ''));
      expect(log.toLowerCase()).not.toContain(token.slice(8));
    }
    const redacted = `/deploy/${uuid.slice(0, 8)}…`;
    const requests = lines.map((l) => JSON.parse(l) as { path?: string; status?: number; msg: string }).filter((l) => l.msg === 'request' && l.path?.toLowerCase().startsWith('/deploy/'));
    // the windows script, the capitals, the unknown one, the linux script for the installer
    expect(requests.map((l) => [l.path!.toLowerCase(), l.status])).toEqual([
      [redacted, 200],
      [redacted, 200],
      [`/deploy/${unknown.slice(0, 8)}…`, 404],
      [redacted, 200],
    ]);
  });
});
