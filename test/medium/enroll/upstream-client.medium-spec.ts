import { HttpAdapterHost } from '@nestjs/core';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { RuntimeConfig } from '../../../apps/api/src/config/runtime-config';
import { UpstreamClient } from '../../../apps/api/src/enroll/upstream.client';

/**
 * The function's HTTP client toward another server (DATA_URL / RMM_API_URL elsewhere), against a real HTTP server
 * on 127.0.0.1: answers, redirects, a location that is not a URL, an answer too large, a server that never answers.
 */
describe('UpstreamClient over HTTP', () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method: string; url: string; body: string }> = [];
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/ok': (_req, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":7}'),
    '/text': (_req, res) => res.writeHead(500).end('not json'),
    '/moved': (_req, res) => res.writeHead(307, { location: '/ok' }).end(),
    '/see-other': (_req, res) => res.writeHead(303, { location: `${base}/ok` }).end(),
    '/bad-location': (_req, res) => res.writeHead(302, { location: 'http://[::1' }).end(),
    '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/huge': (_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 120);
      for (let i = 0; i < 6; i++) res.write(chunk);
      res.end();
    },
    '/never': () => undefined,
  };
  const client = new UpstreamClient({ enrollUpstreamTimeoutMs: 1_000, internalUrl: undefined } as unknown as RuntimeConfig, {} as HttpAdapterHost);

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method!, url: req.url!, body });
        (routes[req.url!] ?? ((_q: IncomingMessage, r: ServerResponse) => r.writeHead(404).end()))(req, res);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => (seen.length = 0));

  it('sends JSON and answers the status, text and JSON', async () => {
    const r = await client.call(`${base}/ok`, { method: 'POST', headers: { apikey: 'k' }, body: { a: 1 } });
    expect(r).toEqual({ kind: 'answer', status: 201, text: '{"id":7}', json: { id: 7 } });
    expect(seen).toEqual([{ method: 'POST', url: '/ok', body: '{"a":1}' }]);
  });

  it('answers a body that is not JSON as text', async () => {
    expect(await client.call(`${base}/text`, { method: 'GET', headers: {} })).toEqual({ kind: 'answer', status: 500, text: 'not json', json: undefined });
  });

  it('follows a 307 with the same method and body, a 303 as a GET', async () => {
    expect(await client.call(`${base}/moved`, { method: 'POST', headers: {}, body: { b: 2 } })).toMatchObject({ kind: 'answer', status: 201 });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual(['POST /moved {"b":2}', 'POST /ok {"b":2}']);
    seen.length = 0;
    expect(await client.call(`${base}/see-other`, { method: 'POST', headers: {}, body: { b: 2 } })).toMatchObject({ kind: 'answer', status: 201 });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual(['POST /see-other {"b":2}', 'GET /ok ']);
  });

  it('a redirect to something that is not a URL, or redirects without end: unreachable, and the process goes on', async () => {
    expect(await client.call(`${base}/bad-location`, { method: 'GET', headers: {} })).toEqual({ kind: 'unreachable', reason: 'a redirect to a location that is not a URL' });
    expect(await client.call(`${base}/loop`, { method: 'GET', headers: {} })).toEqual({ kind: 'answer', status: 302, text: '', json: undefined });
    expect(seen.filter((s) => s.url === '/loop')).toHaveLength(6); // the call and five redirects
  });

  it('an answer over 4 MiB is not read to the end: unreachable', async () => {
    expect(await client.call(`${base}/huge`, { method: 'GET', headers: {} })).toEqual({ kind: 'unreachable', reason: 'answer over 4194304 bytes' });
  });

  it('a server that never answers: timeout within ENROLL_UPSTREAM_TIMEOUT_MS', async () => {
    expect(await client.call(`${base}/never`, { method: 'GET', headers: {} })).toEqual({ kind: 'timeout' });
  });

  it('nobody listening: unreachable with the error code', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    expect(await client.call(`http://127.0.0.1:${port}/x`, { method: 'GET', headers: {} })).toEqual({ kind: 'unreachable', reason: 'ECONNREFUSED' });
  });
});
