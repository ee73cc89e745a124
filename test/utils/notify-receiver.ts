import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
}

/** A webhook receiver on 127.0.0.1 (node:http): records every request and answers as `respond` says (default 200). */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Decides each answer (`n`: how many requests came before this one); write the status, headers and body. */
  respond: (req: Received, res: ServerResponse, n: number) => void;
  close(): Promise<void>;
}

export async function startReceiver(respond?: Receiver['respond'], port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const r: Receiver = {
    url: '',
    port: 0,
    received,
    respond: respond ?? ((_req, res) => res.writeHead(200).end('ok')),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const n = received.length;
      received.push(got);
      r.respond(got, res, n);
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.port = (server.address() as AddressInfo).port;
  r.url = `http://127.0.0.1:${r.port}`;
  const close = r.close;
  r.close = () => {
    server.closeAllConnections();
    return close();
  };
  return r;
}

/**
 * Verifies X-RMM-Signature as a receiver would (docs/notifications.md): `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`, compared in constant time.
 */
export function verifySignature(secret: string, header: string | string[] | undefined, body: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header ?? ''));
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2], 'hex'));
}

/** A receiver that accepts every request and never answers (the N2 probe's), counting the requests it holds open. */
export interface HangingReceiver extends Receiver {
  /** Requests received and not yet closed by the sender (its time-out closes them). */
  open(): number;
  /** The most requests it held open at once. */
  maxOpen(): number;
}

export async function startHangingReceiver(): Promise<HangingReceiver> {
  let open = 0;
  let maxOpen = 0;
  const r = await startReceiver((_req, res) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    res.on('close', () => (open -= 1));
  });
  return Object.assign(r, { open: () => open, maxOpen: () => maxOpen });
}
