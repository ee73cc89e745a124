import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** How the fake backend answers the next deployment requests. */
export type FakeMode = 201 | 400 | 401 | 404 | 429 | 500 | 'hang' | 'echo-key-401' | 'not-json-201';

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/**
 * A stand-in for a management backend the function may front (RMM_API_URL): it records what it
 * received and answers as told. Used only where the real backend cannot be made to fail on demand.
 */
export class FakeBackend {
  readonly received: Received[] = [];
  mode: FakeMode = 201;
  private server: Server;
  private sockets = new Set<Socket>();
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private issued = 0;

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += chunk;
    this.received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    const json = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const n = ++this.issued; // unique across tests, like a real backend's ids
    switch (this.mode) {
      case 201:
        return json(201, {
          id: n,
          uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          client: 1,
          site: 1,
          expiry: JSON.parse(body || '{}').expires ?? null,
          install_flags: null,
          download_url: `https://rmm.example.test/download/${n}`,
        });
      case 'not-json-201':
        res.writeHead(201, { 'content-type': 'text/plain' });
        res.end('created');
        return;
      case 'hang':
        return; // never answers
      case 'echo-key-401':
        return json(401, { detail: `Invalid token: ${req.headers['x-api-key']}` });
      case 400:
        return json(400, { detail: 'validation error', errors: [{ field: 'site', message: 'site 999 is not a site of client 1' }] });
      case 401:
        return json(401, { detail: 'Invalid token' });
      case 404:
        return json(404, { detail: 'Not found' });
      case 429:
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '60' });
        res.end(JSON.stringify({ detail: 'rate limited' }));
        return;
      case 500:
        return json(500, { detail: 'server error' });
    }
  }
}

/** A URL on which nothing listens: connections are refused at once. */
export async function refusedUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
