import WebSocket from 'ws';

export type AgentWireMessage = { type: string; id?: string } & Record<string, any>;

/**
 * A WebSocket on the agent channel (/agent/v1/ws) with a registered agent's credentials, speaking the protocol
 * by hand: it sends exactly what a test wants (valid or not) and records what the server sends it.
 */
export class FakeAgent {
  readonly messages: AgentWireMessage[] = [];
  closed?: { code: number; reason: string };
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as AgentWireMessage);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    ws.on('error', () => undefined); // a refused or dropped connection shows as `closed`
  }

  /** Connects with the agent's id and secret (rejects with the HTTP status and body when the upgrade is refused). */
  static connect(url: string, agentId: string, secret: string): Promise<FakeAgent> {
    return FakeAgent.connectWith(url, { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` });
  }

  /** Connects with these upgrade headers as they are (right, wrong or missing credentials). */
  static connectWith(url: string, headers: Record<string, string>): Promise<FakeAgent> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/agent/v1/ws`, { headers });
      const agent = new FakeAgent(ws);
      ws.once('open', () => resolve(agent));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body })));
      });
      ws.once('error', reject);
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** The next message of `type` not yet taken. */
  async next(type: string, timeoutMs = 10_000): Promise<AgentWireMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.findIndex((m) => m.type === type);
      if (found >= 0) return this.messages.splice(found, 1)[0];
      if (this.closed) throw new Error(`closed (${this.closed.code} ${this.closed.reason}) before ${type}`);
      if (Date.now() > deadline) throw new Error(`no ${type} within ${timeoutMs} ms`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 100);
      });
    }
  }

  async whenClosed(timeoutMs = 10_000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (!this.closed) throw new Error('still open');
    return this.closed;
  }

  /** Waits until a checks.sync carrying this check has come (the server counts results only for checks it gave the agent). */
  async given(checkId: number, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.messages.some((m) => m.type === 'checks.sync' && m.checks.some((c: { id: number }) => c.id === checkId))) {
      if (Date.now() > deadline) throw new Error(`check ${checkId} never came in a checks.sync`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Sends a frame as it is (text, or a Buffer as a binary frame). */
  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  /** Stops reading its socket (what the server sends then piles up on the server's side). */
  stopReading(): void {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }
}
