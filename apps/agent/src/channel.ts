import WebSocket from 'ws';
import { CLOSE_CODES } from '@app/protocol/agent';
import type { AgentMessage, HeartbeatFacts, HelloMessage } from '@app/protocol/agent';
import { changedFacts, collectFacts, heartbeatFacts } from './facts';
import { createHandlers } from './handlers';
import { ChannelHooks, Connection, Log, SendCurrent } from './handlers/handler';
import { HandlerRegistry } from './handlers/registry';
import { AGENT_TARGET, AGENT_VERSION } from './protocol';
import { AgentState } from './state';

/** The server pings every 30 s: silence this long means the connection is dead. */
const SILENCE_MS = 100_000;
const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

/** Exit codes of `run` (apps/agent/README.md). */
export const EXIT_STOPPED = 0; // SIGTERM/SIGINT, or replaced by a newer connection of this agent (4000)
export const EXIT_CREDENTIALS = 4; // re-enrolled (4001) or the secret refused (401): this installation is void

export function channelUrl(server: string): string {
  const u = new URL(server);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/agent/v1/ws`;
  u.search = '';
  u.hash = '';
  return u.toString();
}

/** 1 s doubling to 60 s, ±20 % jitter. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** After a 1001 (server shutting down): this many attempts at a short random delay (a restart takes seconds). */
export const RESTART_ATTEMPTS = 10;
const RESTART_DELAY_MIN_MS = 1_000;
const RESTART_DELAY_SPREAD_MS = 4_000;

/**
 * The delay before reconnect attempt `attempt` (0 for the first after a drop). After the server said it is
 * shutting down (1001), the first RESTART_ATTEMPTS attempts each wait a random 1–5 s (spread evenly, so thousands
 * of agents do not come back in one instant nor climb a ladder past the restart), then the usual back-off
 * continues from 8 s; after any other drop, backoffMs (docs/agent-protocol.md).
 */
export function reconnectDelayMs(attempt: number, afterShutdown: boolean, random: () => number = Math.random): number {
  if (!afterShutdown) return backoffMs(attempt, random);
  if (attempt < RESTART_ATTEMPTS) return Math.round(RESTART_DELAY_MIN_MS + RESTART_DELAY_SPREAD_MS * random());
  return backoffMs(attempt - RESTART_ATTEMPTS + 3, random);
}

/** Informational (server logs): `rmm-agent/0.1.0`, or `rmm-agent/0.1.0 (linux-amd64)` for a binary. */
export const USER_AGENT = `rmm-agent/${AGENT_VERSION}${AGENT_TARGET ? ` (${AGENT_TARGET})` : ''}`;

export function openSocket(state: AgentState): WebSocket {
  return new WebSocket(channelUrl(state.server), {
    headers: { 'X-Agent-Id': state.agent_id, Authorization: `Bearer ${state.agent_secret}`, 'User-Agent': USER_AGENT },
    handshakeTimeout: 15_000,
    maxPayload: 16 * 1024 * 1024,
  });
}

/**
 * `run`: holds the channel open until told to stop. Resolves with the process exit code: on 4000 (replaced),
 * 4001 (re-enrolled), a 401 at the upgrade, or stop(). Any other drop: reconnect with back-off.
 */
export class AgentChannel {
  private ws?: WebSocket;
  private stopped = false;
  /** pause(): no connection and no reconnect until resume() (a new version is on trial with the same credentials). */
  private paused = false;
  private retryTimer?: NodeJS.Timeout;
  private finish!: (code: number) => void;
  readonly done = new Promise<number>((resolve) => (this.finish = resolve));
  /** The agent's capabilities (handlers/): every message from the server goes through it. */
  private readonly handlers: HandlerRegistry;

  constructor(
    private readonly state: AgentState,
    private readonly log: Log,
    private readonly hooks: ChannelHooks = {},
  ) {
    this.handlers = new HandlerRegistry(createHandlers({ log, sendCurrent: this.sendCurrent, hooks }), log);
  }

  start(): Promise<number> {
    this.connect(0);
    return this.done;
  }

  stop(code = EXIT_STOPPED): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.handlers.stop();
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.close(1000, 'agent stopping');
    else this.ws?.terminate();
    this.finish(code);
  }

  /**
   * Closes the connection (1000) and stays disconnected until resume(): the server keeps one connection per agent
   * and would close this one as replaced (4000) once a new version on trial connects with the same credentials.
   * Resolves when the socket is closed (at most 5 s).
   */
  pause(): Promise<void> {
    this.paused = true;
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 5_000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (ws.readyState === WebSocket.OPEN) ws.close(1000, 'agent updating');
      else ws.terminate();
    });
  }

  /** Connects again after pause(). */
  resume(): void {
    if (!this.paused || this.stopped) return;
    this.paused = false;
    this.connect(0);
  }

  private connect(attempt: number, afterShutdown = false): void {
    if (this.stopped || this.paused) return;
    const ws = openSocket(this.state);
    this.ws = ws;
    let heartbeat: NodeJS.Timeout | undefined;
    let silence: NodeJS.Timeout | undefined;
    let greeted = false;
    let refused = false;
    let sentFacts: HeartbeatFacts | undefined; // what this connection told the server
    const send = (message: AgentMessage | string): boolean => {
      if (ws.readyState !== WebSocket.OPEN) return false;
      ws.send(typeof message === 'string' ? message : JSON.stringify(message));
      return true;
    };
    const beat = (): void => {
      let facts: Partial<HeartbeatFacts> | undefined;
      try {
        const current = heartbeatFacts(collectFacts(), this.hooks.updateTarget);
        facts = changedFacts(sentFacts, current);
        sentFacts = current;
      } catch (err) {
        this.log(`facts not collected: ${(err as Error).message}`);
      }
      send(facts ? { type: 'heartbeat', facts } : { type: 'heartbeat' });
    };
    const alive = (): void => {
      clearTimeout(silence);
      silence = setTimeout(() => {
        this.log('no word from the server for too long: dropping the connection');
        ws.terminate();
      }, SILENCE_MS);
    };
    const connection: Connection = {
      send,
      sendBinary: (bytes) => {
        if (ws.readyState !== WebSocket.OPEN) return false;
        ws.send(bytes, { binary: true });
        return true;
      },
      greet: (hello: HelloMessage) => {
        greeted = true;
        const every = hello.heartbeat_seconds * 1000;
        clearInterval(heartbeat);
        sentFacts = undefined;
        beat(); // the first heartbeat at once, with every fact
        heartbeat = setInterval(beat, every);
        this.log(`agent ${hello.agent_id} online; heartbeat every ${every / 1000} s`);
        this.hooks.onHello?.(this.sendCurrent);
      },
    };

    ws.on('open', () => {
      this.log(`connected to ${channelUrl(this.state.server)}`);
      alive();
    });
    ws.on('ping', alive);
    ws.on('unexpected-response', (_req, res) => {
      refused = res.statusCode === 401;
      this.log(`the server refused the connection: HTTP ${res.statusCode}`);
      res.resume();
      ws.terminate();
    });
    ws.on('error', (err) => this.log(`connection error: ${err.message}`));
    ws.on('message', (data, isBinary) => {
      alive();
      if (isBinary) this.handlers.receiveBinary(Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data), connection);
      else this.handlers.receive(data.toString(), connection);
    });
    ws.on('close', (code, reason) => {
      clearInterval(heartbeat);
      clearTimeout(silence);
      if (this.ws === ws) this.handlers.disconnected();
      if (this.stopped || this.paused) return;
      const why = reason.toString();
      if (code === CLOSE_CODES.replaced) {
        this.log(`closed by the server (4000 ${why}): another process of this agent took over; stopping`);
        return this.stop(EXIT_STOPPED);
      }
      if (code === CLOSE_CODES.reenrolled) {
        this.log(`closed by the server (4001 ${why}): this installation was re-enrolled; its secret no longer works; stopping`);
        return this.stop(EXIT_CREDENTIALS);
      }
      if (refused) {
        this.log('the server refused this agent\'s credentials (401): re-register it; stopping');
        return this.stop(EXIT_CREDENTIALS);
      }
      // A greeted connection's close starts the count again; a 1001 then means "the server is restarting".
      const shutdown = greeted ? code === CLOSE_CODES.shuttingDown : afterShutdown;
      const next = greeted ? 0 : attempt + 1;
      const delay = reconnectDelayMs(greeted ? 0 : attempt, shutdown);
      this.log(`${code === CLOSE_CODES.shuttingDown ? 'the server is shutting down' : `disconnected (${code}${why ? ` ${why}` : ''})`}; reconnecting in ${(delay / 1000).toFixed(1)} s`);
      this.retryTimer = setTimeout(() => this.connect(next, shutdown), delay);
    });
  }

  private readonly sendCurrent: SendCurrent = (message) => {
    const ws = this.ws;
    if (this.stopped || !ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    return true;
  };
}
