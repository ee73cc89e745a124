import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentUpdatesService } from '../../apps/api/src/rmm/fleet/agent-updates/agent-updates.service';
import { FakeAgent } from '../utils/fake-agent';
import { createTenant } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

/**
 * N3 (issue 30): 50 fake agents registered through client B's deployments, claiming an old version with an
 * `update_target`, took all 50 update slots; client A's outdated agent was never offered its update, and the slots
 * stayed taken after the fakes disconnected. Now a freed slot goes first to the waiting client with the fewest
 * updates running, a disconnect frees its agent's slot at once, and an offer not answered within
 * RMM_AGENT_UPDATE_OFFER_SECONDS is released and offered again later. The fakes here are the probe's: real
 * WebSockets that take the offer and do nothing with it.
 */
const ADMIN = 'update-slots-e2e-admin-key-0123456789';
const NEW = '0.3.1';
const OLD = '0.3.0';
const admin = { 'X-API-KEY': ADMIN };

/** A stand-in linux-amd64 binary of NEW in a folder of its own, with its manifest (no build). */
function standInBinDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rmm-update-slots-'));
  const binary = randomBytes(64 * 1024);
  writeFileSync(join(dir, 'rmm-agent-linux-amd64'), binary, { mode: 0o755 });
  const sha256 = createHash('sha256').update(binary).digest('hex');
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: NEW, bun: 'stand-in', targets: { 'linux-amd64': { file: 'rmm-agent-linux-amd64', size: binary.length, sha256 } } }));
  return dir;
}

const env = (binDir: string, extra: Record<string, string>): Record<string, string> => ({
  RMM_ADMIN_API_KEY: ADMIN,
  RMM_AGENT_VERSION: NEW,
  RMM_AGENT_BIN_DIR: binDir,
  RMM_RATE_LIMIT_PER_MINUTE: '1000000',
  RMM_REGISTER_RATE_LIMIT_PER_MINUTE: '1000000',
  RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000000',
  ...extra,
});

type Enrolled = { agentId: string; secret: string };

async function enroll(t: TestApp, clientId: number, siteId: number, n: number, prefix: string): Promise<Enrolled[]> {
  const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client: clientId, site: siteId });
  expect(d.status).toBe(201);
  const out: Enrolled[] = [];
  for (let i = 0; i < n; i++) {
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: `${prefix}-${i}`, plat: 'linux', version: OLD });
    expect(r.status).toBe(200);
    out.push({ agentId: r.body.agent_id, secret: r.body.agent_secret });
  }
  return out;
}

/** Connects as a binary agent on OLD that can update itself (the offer comes after this heartbeat). */
async function connectOld(t: TestApp, a: Enrolled, open: FakeAgent[]): Promise<FakeAgent> {
  const ws = await FakeAgent.connect(t.url, a.agentId, a.secret);
  open.push(ws);
  await ws.next('hello');
  ws.send({ type: 'heartbeat', facts: { hostname: 'fake', plat: 'linux', version: OLD, update_target: 'linux-amd64' } });
  return ws;
}

const offered = (ws: FakeAgent): number => ws.messages.filter((m) => m.type === 'update.available').length;

async function statusOf(t: TestApp, agentId: string): Promise<string | undefined> {
  const [row] = await sql(t.db.url, `SELECT status FROM agent_updates WHERE agent_id = $1`, [Number(agentId)]);
  return row?.status as string | undefined;
}

describe('N3: update slots are fair between clients and released', () => {
  let t: TestApp;
  let binDir: string;
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    binDir = standInBinDir();
    // The default offer time-out (120 s): every release seen here is a disconnect's, never a time-out's.
    t = await startTestApp(env(binDir, { RMM_AGENT_UPDATE_CONCURRENCY: '50' }));
  });
  afterAll(async () => {
    for (const a of open.splice(0)) a.ws.terminate();
    await t?.close();
    rmSync(binDir, { recursive: true, force: true });
  });

  it("client B's 60 fakes fill the 50 slots; client A's agent gets the first slot a disconnect frees, not B's waiting fakes; disconnects free slots at once", async () => {
    const a = await createTenant(t, 'Slots Client A');
    const b = await createTenant(t, 'Slots Client B');
    const fakes = await enroll(t, b.clientId, b.siteId, 60, 'slots-b');
    const [mine] = await enroll(t, a.clientId, a.siteId, 1, 'slots-a');
    const updates = t.server.app.get(AgentUpdatesService);

    // The probe: B's fakes connect first and take every slot (a client alone may use them all).
    const bSockets = await Promise.all(fakes.map((f) => connectOld(t, f, open)));
    await until('B holds all 50 slots', async () => bSockets.filter((ws) => offered(ws) > 0).length === 50, 30_000);
    await updates.settled();
    expect(bSockets.filter((ws) => offered(ws) > 0)).toHaveLength(50);
    const running = await t.http.get('/api/v3/agents/updates/').set(admin);
    expect(running.body.updates).toMatchObject({ running: 50, pending: 10 });

    // A's outdated agent connects: it waits (no slot is free), like B's ten others.
    const aSocket = await connectOld(t, mine, open);
    await until("A's update pending", async () => (await statusOf(t, mine.agentId)) === 'pending');
    await updates.settled();
    expect(offered(aSocket)).toBe(0);

    // One of B's offered fakes disconnects: its slot is free at once and goes to A (no update running), not to B's
    // ten waiting fakes (fifty running): well before the 120 s offer time-out.
    const holder = bSockets.find((ws) => offered(ws) > 0)!;
    holder.ws.terminate();
    const offer = await aSocket.next('update.available', 15_000);
    expect(offer).toMatchObject({ version: NEW, target: 'linux-amd64' });
    await updates.settled();
    expect(bSockets.filter((ws) => offered(ws) > 0)).toHaveLength(50); // (the same fifty: none of the waiting ten)
    expect(await statusOf(t, mine.agentId)).toBe('running');

    // Every one of B's fakes goes away: no slot stays taken by them (the probe saw them held 15 minutes).
    for (const ws of bSockets) ws.ws.terminate();
    await until('only A still holds a slot', async () => {
      const [row] = await sql(
        t.db.url,
        `SELECT count(*)::int AS n FROM agent_updates u JOIN agents g ON g.id = u.agent_id WHERE u.status = 'running' AND g.client_id = $1`,
        [b.clientId],
      );
      return row.n === 0;
    }, 15_000);
    const after = await t.http.get('/api/v3/agents/updates/').set(admin);
    expect(after.body.updates.running).toBe(1);
  }, 120_000);
});

describe('N3: an offer not answered within RMM_AGENT_UPDATE_OFFER_SECONDS is released and offered again later', () => {
  let t: TestApp;
  let binDir: string;
  const open: FakeAgent[] = [];

  beforeAll(async () => {
    binDir = standInBinDir();
    t = await startTestApp(env(binDir, { RMM_AGENT_UPDATE_CONCURRENCY: '1', RMM_AGENT_UPDATE_OFFER_SECONDS: '2' }));
  });
  afterAll(async () => {
    for (const a of open.splice(0)) a.ws.terminate();
    await t?.close();
    rmSync(binDir, { recursive: true, force: true });
  });

  it('one slot: a silent agent holds it for 2 s, then the other agent gets it, and the silent one is offered again after', async () => {
    const tenant = await createTenant(t, 'Slots Timeout');
    const [first, second] = await enroll(t, tenant.clientId, tenant.siteId, 2, 'slots-timeout');
    const x = await connectOld(t, first, open);
    await x.next('update.available', 10_000);
    const y = await connectOld(t, second, open);
    await until("y's update pending", async () => (await statusOf(t, second.agentId)) === 'pending');
    // x never answers (no download, no update.failed, no reconnect): its offer is released after 2 s, y gets the slot
    await y.next('update.available', 15_000);
    expect(await statusOf(t, first.agentId)).toBe('pending');
    expect(t.logs.some((l) => l.includes('not answered within 2 s (RMM_AGENT_UPDATE_OFFER_SECONDS)'))).toBe(true);
    // y does not answer either: its slot is released in turn, and x is offered again (retried later, not dropped)
    await x.next('update.available', 15_000);
  }, 60_000);
});
