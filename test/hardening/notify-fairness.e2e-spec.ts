import { AlertsService } from '../../apps/api/src/rmm/alerting/alerts/alerts.service';
import { HangingReceiver, Receiver, startHangingReceiver, startReceiver } from '../utils/notify-receiver';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { sleep, until } from '../utils/wait';

jest.setTimeout(120_000);

const ADMIN = 'notify-fairness-admin-key-0123456789';
const admin = { 'X-API-KEY': ADMIN };
const ENV = { RMM_ADMIN_API_KEY: ADMIN, RMM_NOTIFY_ALLOW_PRIVATE: 'true', RMM_NOTIFY_RETRY_BASE_SECONDS: '1', RMM_RATE_LIMIT_PER_MINUTE: '10000' };

type Json = Record<string, any>;

async function createChannel(t: TestApp, body: Json): Promise<Json> {
  const res = await t.http.post('/api/v3/notifications/').set(admin).send(body);
  expect(res.status).toBe(201);
  return res.body;
}

/** Opens an alert the way the server does (its delivery written in the alert's transaction, the worker woken). */
const raise = (t: TestApp, agentId: number, message: string) => t.server.app.get(AlertsService).raise({ alertType: 'enrollment_conflict', agentId, severity: 'error', message });

/** `n` more pending deliveries like this channel's first one (its real payload), all due now: a backlog as the probe's 9,355. */
async function flood(t: TestApp, channelId: number, n: number): Promise<void> {
  await sql(
    t.db.url,
    `INSERT INTO notification_deliveries (channel_id, event, severity, payload)
     SELECT d.channel_id, d.event, d.severity, d.payload FROM generate_series(1, $2::int) g,
            (SELECT * FROM notification_deliveries WHERE channel_id = $1 ORDER BY created_at LIMIT 1) d`,
    [channelId, n],
  );
}

/**
 * N2 (issue 30, point 3): a slow receiver delays only itself. The probe: a receiver that accepts and never answers,
 * thousands of deliveries pending for it, and another client's real alert not delivered after 120 s. Here, on two
 * instances sharing one database: the hanging channel never has more than RMM_NOTIFY_CHANNEL_CONCURRENCY (4) requests
 * open at its receiver, its attempts time out as failures that say so, and the other client's alert reaches its own
 * receiver within 15 s.
 */
describe('N2 point 3: a receiver that never answers delays only its own channel', () => {
  let t: TestApp;
  let second: TestApp;
  let hanging: HangingReceiver;
  let quiet: Receiver;

  beforeAll(async () => {
    hanging = await startHangingReceiver();
    quiet = await startReceiver();
    t = await startTestApp(ENV);
    second = await startTestApp(ENV, { db: t.db });
  });
  afterAll(async () => {
    // the receivers first: attempts still waiting on the hanging one end now, not after their 10 s
    await hanging?.close();
    await quiet?.close();
    await second?.close();
    await t?.close();
  });

  it('holds at most 4 requests open at the hanging receiver across two instances, and delivers the other client’s alert within 15 s', async () => {
    const slow = await createTenant(t, 'Hanging Receiver Co');
    const other = await createTenant(t, 'Quiet Receiver Co');
    const slowChannel = await createChannel(t, { name: 'never answers', type: 'webhook', url: `${hanging.url}/hook`, min_severity: 'info', events: ['alert.created'], clients: [slow.clientId] });
    const quietChannel = await createChannel(t, { name: 'answers', type: 'webhook', url: `${quiet.url}/hook`, min_severity: 'info', events: ['alert.created'], clients: [other.clientId] });

    // The flood: a real alert of the slow client, then 1,500 more of its delivery, all pending and due.
    await raise(t, await insertAgent(t, { hostname: 'slow-client-host', clientId: slow.clientId, siteId: slow.siteId }), 'the first of many');
    await flood(t, slowChannel.id, 1_500);
    await until('the hanging receiver holding its 4 requests', async () => hanging.open() >= 4, 10_000);
    await sleep(2_500); // both instances poll (every second) and wake meanwhile: neither takes a fifth slot
    expect(hanging.open()).toBe(4);

    const otherAgent = await insertAgent(t, { hostname: 'quiet-client-host', clientId: other.clientId, siteId: other.siteId });
    const raisedAt = Date.now();
    const alert = await raise(second, otherAgent, 'the alert that must not wait');
    const got = await until('the other client’s alert at its receiver', async () => quiet.received.find((r) => JSON.parse(r.body).alert?.id === alert!.id), 15_000);
    expect(got.at - raisedAt).toBeLessThan(15_000);
    expect(got.headers['x-rmm-event']).toBe('alert.created');

    // The first four time out (10 s) as failures that say so; the next four take their slots, never a fifth.
    await until('a second round of attempts at the hanging receiver', async () => hanging.received.length >= 8, 25_000);
    expect(hanging.maxOpen()).toBe(4);
    const timedOut = await until('the timed-out attempts recorded', async () => {
      const page = async (offset: number): Promise<Json[]> => (await t.http.get(`/api/v3/notifications/${slowChannel.id}/deliveries/?limit=1000&offset=${offset}`).set(admin).expect(200)).body;
      const rows = [...(await page(0)), ...(await page(1000))];
      const failed = rows.filter((r) => r.last_error !== null);
      return failed.length >= 4 ? failed : undefined;
    });
    for (const d of timedOut) expect(d).toMatchObject({ status: 'pending', last_status_code: null, last_error: 'timed out: the receiver did not answer within 10 s' });
    const channel = (await t.http.get(`/api/v3/notifications/${slowChannel.id}/`).set(admin).expect(200)).body;
    expect(channel).toMatchObject({ circuit_open: false, circuit_reason: null, last_failure: 'timed out: the receiver did not answer within 10 s' });
    expect(new Date(channel.failing_since).getTime()).toBeLessThanOrEqual(Date.now());
    // the other channel never failed
    expect((await t.http.get(`/api/v3/notifications/${quietChannel.id}/`).set(admin).expect(200)).body).toMatchObject({ circuit_open: false, failing_since: null, last_failure: null });
    const [{ pending }] = await sql<{ pending: number }>(t.db.url, `SELECT count(*)::int AS pending FROM notification_deliveries WHERE channel_id = $1 AND status = 'pending'`, [slowChannel.id]);
    expect(pending).toBeGreaterThan(1_400);
  });
});

/**
 * N2 (issue 30, point 3): a channel that has failed throughout RMM_NOTIFY_CIRCUIT_MINUTES is paused. Here the setting
 * is 0.1 (6 s, a fraction as docs/configuration.md allows), so probes come a fifth of it apart (1.2 s): the channel
 * shows circuit_open with its reason, its attempts are spaced while open, and the first success closes it.
 */
describe('N2 point 3: the circuit breaker of a failing channel', () => {
  let t: TestApp;
  let failing = true;
  let r: Receiver;

  beforeAll(async () => {
    r = await startReceiver((_req, res) => res.writeHead(failing ? 503 : 200).end());
    t = await startTestApp({ ...ENV, RMM_NOTIFY_CIRCUIT_MINUTES: '0.1' });
  });
  afterAll(async () => {
    await r?.close();
    await t?.close();
  });

  it('opens after 6 s of failures with its reason, probes one at a time at least 1.2 s apart, and closes on the next success', async () => {
    const tenant = await createTenant(t, 'Failing Receiver Co');
    const c = await createChannel(t, { name: 'answers 503', type: 'webhook', url: `${r.url}/hook`, min_severity: 'info', events: ['alert.created'] });
    const agentId = await insertAgent(t, { hostname: 'circuit-host', clientId: tenant.clientId, siteId: tenant.siteId });
    await raise(t, agentId, 'the first of several');
    await flood(t, c.id, 40);
    const get = async (): Promise<Json> => (await t.http.get(`/api/v3/notifications/${c.id}/`).set(admin).expect(200)).body;

    const open = await until('the circuit open', async () => ((await get()).circuit_open ? get() : undefined), 30_000);
    const openedAt = new Date(open.circuit_opened_at).getTime();
    const since = new Date(open.failing_since).getTime();
    expect(openedAt - since).toBeGreaterThanOrEqual(6_000);
    expect(open.last_failure).toBe('the receiver answered 503');
    expect(open.circuit_reason).toBe(`every attempt has failed since ${open.failing_since}; last: the receiver answered 503`);
    expect(t.logs.some((l) => l.includes(`notification channel ${c.id} circuit open: every attempt has failed since ${open.failing_since}`))).toBe(true);
    // the list says it too (what the console's channels page shows)
    expect(((await t.http.get('/api/v3/notifications/').set(admin).expect(200)).body as Json[]).find((x) => x.id === c.id)).toMatchObject({ circuit_open: true, circuit_reason: open.circuit_reason });

    // While open: one probe at a time, spaced (before it opened, up to 4 at once, retried after 1-2 s each). The
    // window starts a moment after the opening: attempts claimed just before it may still be arriving.
    await sleep(1_500);
    const from = r.received.length;
    await sleep(6_500);
    const probes = r.received.slice(from).map((x) => x.at);
    expect(probes.length).toBeGreaterThanOrEqual(2);
    expect(probes.length).toBeLessThanOrEqual(6);
    for (let i = 1; i < probes.length; i++) expect(probes[i] - probes[i - 1]).toBeGreaterThanOrEqual(1_100);
    expect((await get()).circuit_open).toBe(true);

    failing = false;
    const closed = await until('the circuit closed by a delivered probe', async () => {
      const now = await get();
      return now.circuit_open ? undefined : now;
    }, 10_000);
    expect(closed).toMatchObject({ circuit_open: false, circuit_reason: null, circuit_opened_at: null, failing_since: null, last_failure: null });
    // closed, the backlog flows at the channel's own pace again: every delivery ends delivered
    await until(
      'every delivery of the channel delivered',
      async () => (await sql<{ n: number }>(t.db.url, `SELECT count(*)::int AS n FROM notification_deliveries WHERE channel_id = $1 AND status <> 'delivered'`, [c.id]))[0].n === 0,
      60_000,
    );
  });
});
