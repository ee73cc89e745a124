import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeAgent } from '../utils/fake-agent';
import { apiClient, enrollAgent, ServerProcess, startServerProcess } from '../utils/server-process';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { until } from '../utils/wait';

/**
 * U2 (issue 30, `npm run bench` on 2026-11-28): with 19,900 agents connected at an open-file limit of 20,000, the
 * first download of the new version spawned the build; spawn failed with EMFILE, its `error` event had no
 * listener, and the process died. Each test here runs the real server as a process of its own (a crash shows as
 * its exit), and holds: a build that cannot start is a 503 and an alert, never the end of the server; the server
 * keeps head-room under its open-file limit, refusing agents (1013) before it runs out, while the API answers.
 */
const ADMIN = 'update-wave-e2e-admin-key-0123456789';

describe('U2: a build that cannot start answers 503 and opens an alert; the server stays up', () => {
  let db: TestDatabase;
  let server: ServerProcess | undefined;
  let binDir: string;
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    binDir = mkdtempSync(join(tmpdir(), 'rmm-update-wave-'));
    server = await startServerProcess({
      DATABASE_URL: db.url,
      RMM_ADMIN_API_KEY: ADMIN,
      RMM_AGENT_VERSION: '9.9.1',
      RMM_AGENT_BIN_DIR: binDir, // (empty: every binary has to be built)
      RMM_AGENT_BUILD_NODE: '/nonexistent/rmm-test/node',
      RMM_RATE_LIMIT_PER_MINUTE: '1000000',
      RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => {
    for (const a of open.splice(0)) a.ws.terminate();
    await server?.stop();
    await db?.drop();
    rmSync(binDir, { recursive: true, force: true });
  });

  it('the download answers 503 {detail}; an outdated agent is offered nothing and an agent_build_failed alert opens; /healthz answers after', async () => {
    const { url } = server!;
    const res = await fetch(`${url}/agent/v1/download/linux-amd64`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: 'the agent binary for linux-amd64 could not be built on this server (its log says why)' });
    expect(server!.exitCode()).toBeNull();

    // The offer path: the binary is built (here: tried) before any offer goes out, so nothing is offered.
    const api = apiClient(url, ADMIN);
    const { agentId, secret } = await enrollAgent(url, api, 'wave-outdated');
    const agent = await FakeAgent.connect(url, agentId, secret);
    open.push(agent);
    await agent.next('hello');
    agent.send({ type: 'heartbeat', facts: { hostname: 'wave-outdated', plat: 'linux', version: '9.9.0', update_target: 'linux-amd64' } });
    const alert = await until('an agent_build_failed alert', async () => {
      const r = await api('GET', '/api/v3/alerts/?alert_type=agent_build_failed');
      return r.status === 200 && r.body.length > 0 ? r.body[0] : undefined;
    }, 20_000);
    expect(alert).toMatchObject({ alert_type: 'agent_build_failed', agent: agentId, severity: 'error', resolved: false });
    expect(alert.message).toContain('the agent binary linux-amd64 9.9.1 could not be built on this server');
    expect(alert.message).toContain('could not start the build (/nonexistent/rmm-test/node)');
    expect(agent.messages.some((m) => m.type === 'update.available')).toBe(false);
    expect(server!.output()).toContain('ENOENT');

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(server!.exitCode()).toBeNull();
  }, 60_000);
});

describe('U2: the server keeps head-room under its open-file limit: agents past it are refused 1013, the API answers', () => {
  // The server runs at an open-file limit of 400 (prlimit, as `ulimit -n 400` would): with the default head-room
  // (max(256, 2 × 50 + 128) = 256) it takes new agent connections while fewer than 144 files are open.
  const LIMIT = 400;
  let db: TestDatabase;
  let server: ServerProcess | undefined;
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    server = await startServerProcess(
      { DATABASE_URL: db.url, RMM_ADMIN_API_KEY: ADMIN, LOG_LEVEL: 'info', RMM_RATE_LIMIT_PER_MINUTE: '1000000', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_REGISTER_RATE_LIMIT_PER_MINUTE: '1000000' },
      { prefix: ['prlimit', `--nofile=${LIMIT}:${LIMIT}`] },
    );
  });
  afterAll(async () => {
    for (const a of open.splice(0)) a.ws.terminate();
    await server?.stop();
    await db?.drop();
  });

  it('connects agents until one is closed 1013 "try again later", says so once in the log and in /readyz, keeps answering, and takes agents again when files free up', async () => {
    const { url } = server!;
    const api = apiClient(url, ADMIN);
    const clients = (await api('GET', '/api/v3/clients/')).body as Array<{ id: number; sites: Array<{ id: number }> }>;
    const d = await api('POST', '/api/v3/agents/deployments/', { client: clients[0].id, site: clients[0].sites[0].id });
    const enrolled: Array<{ agentId: string; secret: string }> = [];
    for (let i = 0; i < LIMIT - 256; i++) {
      const r = await fetch(`${url}/agent/v1/register`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${d.body.uuid}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ hostname: `fd-${i}`, plat: 'linux', version: '0.1.0' }),
      });
      expect(r.status).toBe(200);
      const reg = (await r.json()) as { agent_id: string; agent_secret: string };
      enrolled.push({ agentId: reg.agent_id, secret: reg.agent_secret });
    }

    // One after the other (each greeted before the next), until the server refuses one: it must, before it has
    // as many files open as its limit less the head-room (LIMIT − 256 connections at the very most).
    let refused: { code: number; reason: string } | undefined;
    const accepted: FakeAgent[] = [];
    for (const a of enrolled) {
      const ws = await FakeAgent.connect(url, a.agentId, a.secret);
      open.push(ws);
      const greeted = await ws.next('hello', 10_000).then(
        () => true,
        () => false,
      );
      if (!greeted) {
        refused = await ws.whenClosed();
        break;
      }
      accepted.push(ws);
    }
    expect(refused).toEqual({ code: 1013, reason: 'try again later' });
    expect(accepted.length).toBeGreaterThan(10);
    expect(server!.exitCode()).toBeNull();

    // More tries are refused the same way; the log says it once, not once per connection.
    const lastTried = enrolled[accepted.length];
    for (let i = 0; i < 5; i++) {
      const ws = await FakeAgent.connect(url, lastTried.agentId, lastTried.secret);
      open.push(ws);
      expect(await ws.whenClosed()).toEqual({ code: 1013, reason: 'try again later' });
    }
    const refusals = server!.output().split('\n').filter((l) => l.includes('new agent connections are refused (1013 try again later)'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain(`of the limit ${LIMIT}`);

    // The API answers meanwhile, and /readyz says why agents are refused (still 200: the server is ready).
    const agents = await api('GET', '/api/v3/agents/');
    expect(agents.status).toBe(200);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const readyBody = (await ready.json()) as Record<string, any>;
    expect(readyBody).toMatchObject({ status: 'ready', open_files: { limit: LIMIT, headroom: 256, agent_connections: expect.stringContaining('1013') } });
    expect(readyBody.open_files.open).toBeGreaterThanOrEqual(LIMIT - 256 - 32);

    // Files free up (forty agents go): the next agent is taken again, /readyz no longer names open files.
    for (const ws of accepted.splice(0, 40)) ws.ws.terminate();
    const again = await until('an agent accepted again', async () => {
      const ws = await FakeAgent.connect(url, lastTried.agentId, lastTried.secret);
      open.push(ws);
      return (await ws.next('hello', 5_000).then(
        () => true,
        () => false,
      ))
        ? ws
        : undefined;
    }, 20_000);
    expect(again.closed).toBeUndefined();
    expect(server!.output()).toContain('agent connections are accepted again');
    expect(((await (await fetch(`${url}/readyz`)).json()) as Record<string, unknown>).open_files).toBeUndefined();
    expect(server!.exitCode()).toBeNull();
  }, 180_000);
});
