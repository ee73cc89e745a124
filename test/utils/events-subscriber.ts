import WebSocket from 'ws';
import { until } from './wait';

/** One message of the events WebSocket (docs/events.md). */
export type EventMessage = { event: string; agent_id: string; ts: string; data: any };

/** A subscriber of /rmm/{agent_id}/ over a real WebSocket: records every message and how it closed. */
export class Subscriber {
  readonly messages: EventMessage[] = [];
  closed?: { code: number; reason: string };

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(data.toString()) as EventMessage));
    ws.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
    ws.on('error', () => undefined);
  }

  /** Resolves once the upgrade succeeded; rejects with {status, body} when the server refused it (no WebSocket). */
  static connect(url: string, options: { headers?: Record<string, string> } = {}): Promise<Subscriber> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers: options.headers });
      const sub = new Subscriber(ws);
      ws.once('open', () => resolve(sub));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body, messages: sub.messages.length })));
      });
      ws.once('error', reject);
    });
  }

  /** Takes the first message of this event out of those received (waiting for it). */
  async next(event: string, timeoutMs = 10_000): Promise<EventMessage> {
    return until(`${event} (have: ${this.messages.map((m) => m.event).join(', ')}; closed: ${JSON.stringify(this.closed)})`, async () => {
      const at = this.messages.findIndex((m) => m.event === event);
      return at >= 0 ? this.messages.splice(at, 1)[0] : undefined;
    }, timeoutMs);
  }

  whenClosed(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    return until('the subscriber to be closed', async () => this.closed, timeoutMs);
  }
}

