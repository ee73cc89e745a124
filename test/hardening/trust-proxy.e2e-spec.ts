import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

const ADMIN = 'trust-proxy-admin-key-0123456789abcdef';

/** The address the server records (audit log) for a request that says it was forwarded for 203.0.113.9. */
async function recordedAddress(t: TestApp): Promise<string | null> {
  const name = `Proxy Test ${Math.random().toString(36).slice(2, 8)}`;
  await t.http.post('/api/v3/clients/').set('X-API-KEY', ADMIN).set('X-Forwarded-For', '203.0.113.9').send({ name, site_name: 'HQ' }).expect(201);
  // (the audit row is written after the answer)
  const entry = await until('the audit row of the POST', async () => {
    const audit = await t.http.get('/api/v3/audit/?method=POST&path=/api/v3/clients/').set('X-API-KEY', ADMIN).expect(200);
    return (audit.body as Array<{ target: string; client_address: string | null }>).find((a) => a.target === '/api/v3/clients/');
  });
  return entry.client_address;
}

/** TRUST_PROXY (docs/deploy.md, "Behind a proxy"): X-Forwarded-For is believed only from the proxies named. */
describe('TRUST_PROXY', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('ignores X-Forwarded-For by default: the connection peer is the client (nobody spoofs an address)', async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    expect(await recordedAddress(t)).toBe('127.0.0.1');
  });

  it('believes X-Forwarded-For from a trusted proxy address', async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, TRUST_PROXY: '127.0.0.1' });
    expect(await recordedAddress(t)).toBe('203.0.113.9');
  });

  it('does not believe it from an address that is not listed', async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, TRUST_PROXY: '10.0.0.0/8' });
    expect(await recordedAddress(t)).toBe('127.0.0.1');
  });

  it('believes the nearest proxy with a hop count', async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, TRUST_PROXY: '1' });
    expect(await recordedAddress(t)).toBe('203.0.113.9');
  });
});
