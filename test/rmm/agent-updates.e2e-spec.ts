import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TransactionHost } from '../../apps/api/src/database/transaction-host';
import { AgentUpdatesService } from '../../apps/api/src/rmm/fleet/agent-updates/agent-updates.service';
import { AgentSigningKey, publicKeyFromBase64, updateSigningMessage, verifyUpdateSignature } from '../../apps/api/src/rmm/fleet/agent-binaries/signing-key';
import { Subscriber } from '../utils/events-subscriber';
import { FakeAgent } from '../utils/fake-agent';
import { createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * The staged rollout (docs/agent-binaries.md) with simulated agents over real WebSockets: each plays a single-file
 * agent that can update itself (it sends `update_target`), and on update.available checks the signature with the
 * server's public key, downloads the binary over HTTP, checks its SHA-256, and comes back on the new version.
 * The binary served is a stand-in file in RMM_AGENT_BIN_DIR with its manifest (the real binaries:
 * test/agent/binary-agent.e2e-spec.ts).
 */
const ADMIN = 'agent-updates-e2e-admin-key-0123456789';
const NEW = '0.1.1';
const OLD = '0.1.0';
const CONCURRENCY = 20;

describe('agent updates: staged, signed, counted', () => {
  let t: TestApp;
  let binDir: string;
  let binary: Buffer;
  const admin = { 'X-API-KEY': ADMIN };
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    binDir = mkdtempSync(join(tmpdir(), 'rmm-agent-updates-'));
    binary = randomBytes(256 * 1024);
    writeFileSync(join(binDir, 'rmm-agent-linux-amd64'), binary, { mode: 0o755 });
    const sha256 = createHash('sha256').update(binary).digest('hex');
    writeFileSync(
      join(binDir, 'manifest.json'),
      JSON.stringify({ version: NEW, bun: '1.4.5', targets: { 'linux-amd64': { file: 'rmm-agent-linux-amd64', size: binary.length, sha256 } } }),
    );
    t = await startTestApp({
      RMM_ADMIN_API_KEY: ADMIN,
      RMM_AGENT_VERSION: NEW,
      RMM_AGENT_BIN_DIR: binDir,
      RMM_AGENT_UPDATE_CONCURRENCY: String(CONCURRENCY),
      RMM_RATE_LIMIT_PER_MINUTE: '1000000',
      RMM_REGISTER_RATE_LIMIT_PER_MINUTE: '1000000',
      RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000000',
    });
  });
  afterEach(() => {
    for (const a of open.splice(0)) a.ws.terminate();
  });
  afterAll(async () => {
    await t?.close();
    if (binDir) rmSync(binDir, { recursive: true, force: true });
  });

  const enroll = async (clientId: number, siteId: number, n: number, prefix: string): Promise<Array<{ agentId: string; secret: string }>> => {
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: clientId, site: siteId });
    expect(d.status).toBe(201);
    const out: Array<{ agentId: string; secret: string }> = [];
    for (let i = 0; i < n; i++) {
      const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: `${prefix}-${i}`, plat: 'linux', version: OLD });
      expect(r.status).toBe(200);
      out.push({ agentId: r.body.agent_id, secret: r.body.agent_secret });
    }
    return out;
  };
  const connect = async (a: { agentId: string; secret: string }, version: string, target: string | null = 'linux-amd64'): Promise<FakeAgent> => {
    const ws = await FakeAgent.connect(t.url, a.agentId, a.secret);
    open.push(ws);
    await ws.next('hello');
    ws.send({ type: 'heartbeat', facts: { hostname: 'sim', plat: 'linux', version, ...(target ? { update_target: target } : {}) } });
    return ws;
  };
  const updates = async (): Promise<Record<string, any>> => {
    const r = await t.http.get('/api/v3/agents/updates/').set(admin);
    expect(r.status).toBe(200);
    return r.body;
  };
  const publicKey = (): string => t.server.app.get(AgentSigningKey).publicKeyBase64;

  it('offers a signed update to a binary agent on another version; it comes back on the new one: done, agent.updated', async () => {
    const tenant = await createTenant(t, 'Updates One');
    const [a] = await enroll(tenant.clientId, tenant.siteId, 1, 'upd-one');
    const events = await Subscriber.connect(`${t.url.replace(/^http/, 'ws')}/rmm/${a.agentId}/`, { headers: admin });
    try {
      const ws = await connect(a, OLD);
      const offer = await ws.next('update.available');
      expect(offer).toMatchObject({ version: NEW, target: 'linux-amd64', url: '/agent/v1/download/linux-amd64', size: binary.length });
      // what the agent checks: the signature over target, version and hash, with the key the installer gave it
      expect(verifyUpdateSignature(publicKeyFromBase64(publicKey()), updateSigningMessage('linux-amd64', NEW, offer.sha256), offer.signature)).toBe(true);
      const res = await fetch(`${t.url}${offer.url}`);
      const body = Buffer.from(await res.arrayBuffer());
      expect(createHash('sha256').update(body).digest('hex')).toBe(offer.sha256);
      expect(await events.next('agent.updating')).toMatchObject({ agent_id: a.agentId, data: { from_version: OLD, to_version: NEW } });
      expect((await updates()).updates).toMatchObject({ running: 1 });

      ws.ws.terminate();
      await connect(a, NEW);
      const updated = await events.next('agent.updated');
      expect(updated.data.version).toBe(NEW);
      await until('the update done', async () => (await updates()).updates.done === 1);
      const u = await updates();
      expect(u).toMatchObject({ version: NEW, concurrency: CONCURRENCY, updates: { pending: 0, running: 0, done: 1, failed: 0 } });
      expect(u.versions).toEqual(expect.arrayContaining([{ version: NEW, agents: 1 }]));
    } finally {
      events.ws.terminate();
    }
  });

  it('a refused update is failed, announced and not offered again; agents without update_target or with updates off get nothing', async () => {
    const tenant = await createTenant(t, 'Updates Two');
    const [a, b] = await enroll(tenant.clientId, tenant.siteId, 2, 'upd-two');
    const fleet = await Subscriber.connect(`${t.url.replace(/^http/, 'ws')}/rmm/fleet/`, { headers: admin });
    try {
      const ws = await connect(a, OLD);
      await ws.next('update.available');
      ws.send({ type: 'update.failed', version: NEW, error: 'signature invalid' });
      const failed = await fleet.next('agent.update_failed');
      expect(failed).toMatchObject({ agent_id: a.agentId, data: { version: NEW, error: 'signature invalid' } });
      const u = await updates();
      expect(u.recent_failures).toEqual(expect.arrayContaining([expect.objectContaining({ agent_id: a.agentId, version: NEW, error: 'signature invalid' })]));
      // it reconnects on the old version: not offered that version again
      ws.ws.terminate();
      const again = await connect(a, OLD);
      // an invalid update.failed is answered with an error and changes nothing
      again.send({ type: 'update.failed', version: NEW, error: 'x'.repeat(1001) });
      expect((await again.next('error')).message).toMatch(/invalid update\.failed: \/error/);
      // the Node.js agent (no update_target) on an old version: nothing offered
      const node = await connect(b, OLD, null);
      await t.server.app.get(AgentUpdatesService).settled();
      expect(again.messages.some((m) => m.type === 'update.available')).toBe(false);
      expect(node.messages.some((m) => m.type === 'update.available')).toBe(false);

      // updates off for a client: nothing offered to its agents; PATCH validates the value
      const off = await createTenant(t, 'Updates Off');
      const bad = await t.http.patch(`/api/v3/clients/${off.clientId}/`).set(admin).send({ agent_update: 'sometimes' });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('agent_update must be one of auto, off');
      const empty = await t.http.patch(`/api/v3/clients/${off.clientId}/`).set(admin).send({});
      expect(empty.status).toBe(400);
      const patched = await t.http.patch(`/api/v3/clients/${off.clientId}/`).set(admin).send({ agent_update: 'off' });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id: off.clientId, agent_update: 'off' });
      const [c] = await enroll(off.clientId, off.siteId, 1, 'upd-off');
      const quiet = await connect(c, OLD);
      // a heartbeat on the server's version passes through the same path: wait for a round, then nothing was offered
      await until('a round of offers', async () => (await updates()).versions.some((v: { version: string }) => v.version === OLD));
      await t.server.app.get(AgentUpdatesService).settled();
      expect(quiet.messages.some((m) => m.type === 'update.available')).toBe(false);
    } finally {
      fleet.ws.terminate();
    }
  });

  it(`200 agents at once with RMM_AGENT_UPDATE_CONCURRENCY=${CONCURRENCY}: never more than ${CONCURRENCY} in flight, all done`, async () => {
    const tenant = await createTenant(t, 'Updates Many');
    const agents = await enroll(tenant.clientId, tenant.siteId, 200, 'upd-many');
    const key = publicKeyFromBase64(publicKey());
    let inFlight = 0;
    let peak = 0;
    let done = 0;
    let badSignatures = 0;
    const simulate = async (a: { agentId: string; secret: string }): Promise<void> => {
      const ws = await connect(a, OLD);
      const offer = await ws.next('update.available', 120_000);
      inFlight++;
      peak = Math.max(peak, inFlight);
      if (!verifyUpdateSignature(key, updateSigningMessage(offer.target, offer.version, offer.sha256), offer.signature)) badSignatures++;
      const res = await fetch(`${t.url}${offer.url}`);
      const body = Buffer.from(await res.arrayBuffer());
      expect(createHash('sha256').update(body).digest('hex')).toBe(offer.sha256);
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 80)); // (swapping the binary)
      // A slot covers an update from its offer to the agent's restart: the disconnect frees it at once (issue 30,
      // N3), and the agent is back on the new version later (done then).
      inFlight--;
      ws.ws.terminate();
      await connect(a, NEW); // (left open: closed after the test)
      done++;
    };
    // sampled from the server's side too: never more running than the concurrency
    let serverPeak = 0;
    const sampler = setInterval(() => {
      void updates().then((u) => (serverPeak = Math.max(serverPeak, u.updates.running)), () => undefined);
    }, 200);
    try {
      await Promise.all(agents.map(simulate));
    } finally {
      clearInterval(sampler);
    }
    expect(done).toBe(200);
    expect(badSignatures).toBe(0);
    expect(peak).toBeLessThanOrEqual(CONCURRENCY);
    expect(peak).toBeGreaterThan(1); // (it did run updates side by side)
    expect(serverPeak).toBeLessThanOrEqual(CONCURRENCY);
    await until('every update counted done', async () => {
      const [row] = await t.server.app.get(TransactionHost).rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM agent_updates u JOIN agents a ON a.id = u.agent_id WHERE a.client_id = $1 AND u.status = 'done'`,
        [tenant.clientId],
      );
      return row.n === 200;
    }, 60_000);
    const u = await updates();
    expect(u.updates.running).toBe(0);
    expect(u.versions).toEqual(expect.arrayContaining([expect.objectContaining({ version: NEW })]));
  }, 240_000);
});
