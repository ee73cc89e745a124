import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_JS, AgentProcess, freePort, run } from '../utils/processes';
import { Receiver, startReceiver } from '../utils/notify-receiver';
import { apiClient, ServerProcess, startServerProcess } from '../utils/server-process';
import { sql } from '../utils/sql';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { sleep, until } from '../utils/wait';

jest.setTimeout(180_000);

const ADMIN = 'notifications-process-admin-key-0123456789';

/** `n` agents of the default tenant that are overdue without an alert: the next reconcile (every second here) opens one each, with its notifications. */
async function overdueAgents(db: TestDatabase, prefix: string, n: number): Promise<void> {
  await sql(
    db.url,
    `INSERT INTO agents (hostname, client_id, site_id, plat, monitoring_type, status, version, last_seen)
     SELECT $1 || g, c.id, s.id, 'linux', 'server', 'overdue', '0.1.0', now() - interval '2 hours'
       FROM generate_series(1, $2::int) g, (SELECT id FROM clients ORDER BY id LIMIT 1) c, (SELECT id, client_id FROM sites ORDER BY id LIMIT 1) s`,
    [prefix, n],
  );
}

const env = (db: TestDatabase, extra: Record<string, string> = {}): Record<string, string> => ({
  DATABASE_URL: db.url,
  RMM_ADMIN_API_KEY: ADMIN,
  RMM_NOTIFY_ALLOW_PRIVATE: 'true',
  RMM_NOTIFY_RETRY_BASE_SECONDS: '1',
  RMM_RECONCILE_SECONDS: '1',
  RMM_RATE_LIMIT_PER_MINUTE: '100000',
  ...extra,
});

/**
 * Durable delivery with real server processes (issue 23): a notification written with its alert survives the
 * server being killed before it was delivered, and two instances on one database deliver each notification once.
 */
describe('notification delivery across processes', () => {
  let db: TestDatabase;
  const servers: ServerProcess[] = [];
  const receivers: Receiver[] = [];

  beforeEach(async () => {
    db = await createTestDatabase();
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) if (s.exitCode() === null) await s.stop();
    for (const r of receivers.splice(0)) await r.close();
    await db?.drop();
  });

  const start = async (extra?: Record<string, string>, port?: number): Promise<ServerProcess> => {
    const s = await startServerProcess(env(db, extra), { port });
    servers.push(s);
    return s;
  };

  it('delivers after a restart what a server killed (SIGKILL) between the alert and the delivery had not delivered', async () => {
    const port = await freePort(); // the receiver is down: nothing listens here yet
    const a = await start();
    const api = apiClient(a.url, ADMIN);
    const channel = await api('POST', '/api/v3/notifications/', { name: 'pager', type: 'webhook', url: `http://127.0.0.1:${port}/in`, min_severity: 'error', events: ['alert.created'] });
    expect(channel.status).toBe(201);
    await overdueAgents(db, 'killed-', 1);
    const [pending] = await until('the alert and its undelivered notification', async () => {
      const rows = (await api('GET', `/api/v3/notifications/${channel.body.id}/deliveries/`)).body as Array<{ id: string; status: string; attempts: number; last_error: string | null }>;
      // (an attempt made and recorded: the claim counts it before the request goes out)
      return rows.length === 1 && rows[0].attempts >= 1 && rows[0].last_error !== null ? rows : undefined;
    });
    expect(pending.status).toBe('pending');
    expect(pending.last_error).toMatch(/ECONNREFUSED/);

    process.kill(a.pid, 'SIGKILL');
    await until('the server gone', async () => a.exitCode() !== null);
    const r = await startReceiver(undefined, port);
    receivers.push(r);
    const b = await start();

    await until('the notification delivered by the restarted server', async () => r.received.length >= 1, 100_000);
    expect(r.received[0].headers['x-rmm-delivery']).toBe(pending.id);
    const body = JSON.parse(r.received[0].body);
    expect(body).toMatchObject({ id: pending.id, event: 'alert.created', agent: { hostname: 'killed-1' }, alert: { alert_type: 'agent_overdue', severity: 'error' } });
    const [row] = await until('recorded as delivered', async () => {
      const rows = (await apiClient(b.url, ADMIN)('GET', `/api/v3/notifications/${channel.body.id}/deliveries/`)).body as Array<{ status: string; attempts: number }>;
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    expect(row.attempts).toBeGreaterThanOrEqual(2);
    expect(r.received).toHaveLength(1);
  });

  it('two instances on one database deliver each of 300 notifications exactly once', async () => {
    let inFlight = 0;
    let most = 0;
    // A slow receiver (100 ms an answer): one instance alone would need ~4 s for the 300, several of the other's
    // 1 s polls, so both instances have deliveries under way at the same time (at 30 ms one instance could finish
    // them all between two polls of the other, and did once in CI).
    const r = await startReceiver((_req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(204).end();
      }, 100);
    });
    receivers.push(r);
    // One channel: its own limit (issue 30, point 3) above one instance's, below both together.
    const a = await start({ RMM_NOTIFY_CONCURRENCY: '8', RMM_NOTIFY_CHANNEL_CONCURRENCY: '12' });
    const b = await start({ RMM_NOTIFY_CONCURRENCY: '8', RMM_NOTIFY_CHANNEL_CONCURRENCY: '12' });
    const channel = await apiClient(a.url, ADMIN)('POST', '/api/v3/notifications/', { name: 'count', type: 'webhook', url: r.url, min_severity: 'info', events: ['alert.created'] });
    expect(channel.status).toBe(201);
    await overdueAgents(db, 'pair-', 300);

    await until('300 notifications received', async () => r.received.length >= 300, 120_000);
    await sleep(2_000); // a duplicate would come now
    const ids = r.received.map((x) => String(x.headers['x-rmm-delivery']));
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    const hosts = new Set(r.received.map((x) => JSON.parse(x.body).agent.hostname as string));
    expect(hosts.size).toBe(300);
    // More deliveries at once than one instance's RMM_NOTIFY_CONCURRENCY: both instances were sending.
    expect(most).toBeGreaterThan(8);
    // …and together never more than the channel's RMM_NOTIFY_CHANNEL_CONCURRENCY, counted across both processes.
    expect(most).toBeLessThanOrEqual(12);
    const [{ n }] = await sql(db.url, `SELECT count(*)::int AS n FROM notification_deliveries WHERE status = 'delivered' AND attempts = 1`);
    expect(n).toBe(300);
    expect(a.exitCode()).toBeNull();
    expect(b.exitCode()).toBeNull();
  });
});

/**
 * A server restart is not its agents going offline (issue 29, point 4): real server processes on one database (the
 * second on the first's address) and real agents (the Node bundle of the reference agent), with a webhook channel
 * that pages on agent.offline and lists agent.online at min_severity warning.
 */
describe('a restart of the server with agents connected', () => {
  let db: TestDatabase;
  let work: string;
  const servers: ServerProcess[] = [];
  const agents: AgentProcess[] = [];
  let receiver: Receiver | undefined;

  beforeEach(async () => {
    db = await createTestDatabase();
    work = mkdtempSync(join(tmpdir(), 'rmm-restart-quiet-'));
  });
  afterEach(async () => {
    for (const a of agents.splice(0)) await a.stop();
    for (const s of servers.splice(0)) if (s.exitCode() === null) await s.stop();
    await receiver?.close();
    await db?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  // A heartbeat every 2 s and an offline allowance of 30 s: a restart (seconds) is well within it, on a busy machine too.
  // (the page once the offline allowance has passed, as before issue 30's debounce: RMM_NOTIFY_OFFLINE_GRACE_SECONDS 0)
  const settings = { RMM_AGENT_HEARTBEAT_SECONDS: '2', RMM_AGENT_OFFLINE_AFTER_SECONDS: '30', RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_NOTIFY_OFFLINE_GRACE_SECONDS: '0' };
  const start = async (port: number): Promise<ServerProcess> => {
    const s = await startServerProcess(env(db, settings), { port });
    servers.push(s);
    return s;
  };
  /** A real agent registered through a deployment, running; its id and its process. */
  const agentOn = async (s: ServerProcess, hostname: string): Promise<{ id: string; process: AgentProcess }> => {
    const api = apiClient(s.url, ADMIN);
    const clients = (await api('GET', '/api/v3/clients/')).body as Array<{ id: number; sites: Array<{ id: number }> }>;
    const d = await api('POST', '/api/v3/agents/deployments/', { client: clients[0].id, site: clients[0].sites[0].id });
    expect(d.status).toBe(201);
    const agentEnv = { ...process.env, RMM_AGENT_HOSTNAME: hostname };
    const reg = await run([AGENT_JS, 'register', '--server', s.url, '--token', d.body.uuid, '--prefix', join(work, hostname)], agentEnv, 20_000);
    expect(reg).toMatchObject({ code: 0 });
    const p = new AgentProcess(join(work, hostname), agentEnv);
    agents.push(p);
    p.start();
    return { id: reg.stdout.trim(), process: p };
  };
  const greetings = (a: AgentProcess): number => a.output.split('; heartbeat every').length - 1;
  type Sent = { event: string; agent: string };
  const sent = (): Sent[] => (receiver?.received ?? []).map((x) => JSON.parse(x.body) as { event: string; agent: { hostname: string } }).map((b) => ({ event: b.event, agent: b.agent.hostname }));

  it('pages nobody for an agent back within its offline allowance; one that is not back is paged, and its return follows the page at min_severity warning', async () => {
    receiver = await startReceiver();
    const port = await freePort();
    const first = await start(port);
    const api = apiClient(first.url, ADMIN);
    const channel = await api('POST', '/api/v3/notifications/', { name: 'on-call', type: 'webhook', url: `${receiver.url}/hook`, min_severity: 'warning', events: ['agent.offline', 'agent.online'] });
    expect(channel.status).toBe(201);
    const stays = await agentOn(first, 'restart-stays');
    const gone = await agentOn(first, 'restart-gone');
    const status = async (s: ServerProcess, id: string): Promise<string> => (await apiClient(s.url, ADMIN)('GET', `/api/v3/agents/${id}/`)).body.status;
    await until(`both agents online\n${stays.process.output}\n${gone.process.output}`, async () => (await status(first, stays.id)) === 'online' && (await status(first, gone.id)) === 'online');

    // SIGTERM: the server closes the agents' channels (1001, "reconnect") and stops. One agent is switched off
    // while the server is away: it never comes back on its own.
    expect(await first.stop()).toBe(0);
    await gone.process.stop();
    const second = await start(port);
    // The restarted server shows the agent that was connected online from its first answer…
    expect(await status(second, stays.id)).toBe('online');
    // …and it reconnects (its second greeting).
    await until(`the agent to reconnect\n${stays.process.output}`, async () => greetings(stays.process) >= 2, 30_000);

    // The one switched off is paged once its allowance has passed (the silence sweep of the restarted server).
    await until('the page for the agent that did not come back', async () => sent().some((x) => x.event === 'agent.offline'), 90_000);
    await sleep(3_000); // (another page would come now)
    expect(sent()).toEqual([{ event: 'agent.offline', agent: 'restart-gone' }]);
    expect([await status(second, stays.id), await status(second, gone.id)]).toEqual(['online', 'offline']);
    const alerts = await apiClient(second.url, ADMIN)('GET', `/api/v3/alerts/?agent=${stays.id}`);
    expect([alerts.status, alerts.body]).toEqual([200, []]);

    // It comes back: agent.online (info) follows the page it resolves, though the channel's min_severity is warning.
    gone.process.start();
    await until(`its return to be sent\n${gone.process.output}`, async () => sent().length >= 2, 30_000);
    await sleep(1_000);
    expect(sent()).toEqual([
      { event: 'agent.offline', agent: 'restart-gone' },
      { event: 'agent.online', agent: 'restart-gone' },
    ]);
    // Recorded so: its delivery is an info one.
    const deliveries = (await apiClient(second.url, ADMIN)('GET', `/api/v3/notifications/${channel.body.id}/deliveries/`)).body as Array<{ event: string; severity: string }>;
    expect(deliveries.map((d) => [d.event, d.severity]).sort()).toEqual([
      ['agent.offline', 'warning'],
      ['agent.online', 'info'],
    ]);
  });
});
