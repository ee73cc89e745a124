import { freePort } from '../utils/processes';
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

  const start = async (extra?: Record<string, string>): Promise<ServerProcess> => {
    const s = await startServerProcess(env(db, extra));
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
    // A slow receiver (30 ms an answer), so that both instances have deliveries under way at the same time.
    const r = await startReceiver((_req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        res.writeHead(204).end();
      }, 30);
    });
    receivers.push(r);
    const a = await start({ RMM_NOTIFY_CONCURRENCY: '8' });
    const b = await start({ RMM_NOTIFY_CONCURRENCY: '8' });
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
    const [{ n }] = await sql(db.url, `SELECT count(*)::int AS n FROM notification_deliveries WHERE status = 'delivered' AND attempts = 1`);
    expect(n).toBe(300);
    expect(a.exitCode()).toBeNull();
    expect(b.exitCode()).toBeNull();
  });
});
