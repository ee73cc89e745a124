import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { RawData, WebSocket } from 'ws';
import { TERMINAL_END_REASONS, TerminalEndReason } from '@app/entities';
import { Jobs } from '../../../common/jobs/jobs';
import type { GatewayServer } from '../../../common/ws/gateway-server';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AgentSession, AgentSessions, SessionEnd } from '../../fleet/agent-channel/agent-sessions';
import { TerminalRecording } from './terminal-recording';
import { TERMINAL_SIZE_MAX } from './terminal.dto';
import { CallerAt, TerminalService } from './terminal.service';

/** The most input from the caller waiting for the agent (one frame's largest size too): past it, closed 1009. */
export const MAX_PENDING_INPUT = 1024 * 1024;
/** Invalid text frames answered with {type: "error"} before the connection is closed 1008. */
export const MAX_INVALID_MESSAGES = 5;
/** How often each instance checks its sessions (idle, max duration, ended by an admin) and expires unused tickets. */
export const SWEEP_SECONDS = 5;
/** How long shutdown waits for the sessions' rows to be written. */
const SHUTDOWN_GRACE_MS = 2_000;

/** The close codes of the terminal WebSocket (docs/terminal.md, "Ends"). */
export const TERMINAL_CLOSE = {
  /** Every end of the session: the reason is its end reason (exit, idle, max_duration, ended_by_admin, agent_offline, closed). */
  ended: 1000,
  shuttingDown: 1001,
  invalid: 1008,
  tooMuchInput: 1009,
  /** The agent ended the session for a reason of its own (it could not start the shell): an error frame said which. */
  failed: 1011,
} as const;

/** A session whose caller's WebSocket this instance holds. */
interface Live {
  id: string;
  ws: WebSocket;
  by: CallerAt;
  /** Date.now() when the WebSocket was accepted (max duration). */
  openedAt: number;
  session?: AgentSession;
  /** Why this side is ending it (set once); the close then carries it. */
  ending?: { reason: TerminalEndReason; code: number };
  /** Input from the caller not yet sent to the agent (bytes). */
  pending: number;
  invalid: number;
  /** The row's end written. */
  finished?: Promise<void>;
  /** RMM_TERMINAL_RECORDING: the output recorded as it goes. */
  recording?: TerminalRecording;
}

/** The end reasons a session's end may carry as they are (the others are the agent's own words). */
const KNOWN_REASONS = new Set<string>(TERMINAL_END_REASONS.filter((r) => r !== 'expired'));

/**
 * The terminals whose WebSocket this instance holds, each piped to its agent session (AgentSessions: the agent
 * may be held by another instance). Bytes are never buffered beyond one window: the caller's socket is paused while
 * its input waits for the agent, and the agent's next frame waits for the previous one to be written to the
 * caller's socket (the send callback). The sweep (every SWEEP_SECONDS on every instance) ends sessions idle past
 * RMM_TERMINAL_IDLE_MINUTES (no byte either way), open past RMM_TERMINAL_MAX_HOURS, or ended by an admin; a
 * second sweep, once across the cluster, expires unused tickets.
 */
@Injectable()
export class LiveTerminals implements BeforeApplicationShutdown {
  private readonly logger = new Logger('terminal');
  private readonly live = new Map<string, Live>();
  private readonly endpoints: Array<Pick<GatewayServer, 'stopAccepting'>> = [];

  constructor(
    private readonly sessions: AgentSessions,
    private readonly terminals: TerminalService,
    private readonly config: RuntimeConfig,
    jobs: Jobs,
  ) {
    jobs.every('terminal.sweep', { seconds: SWEEP_SECONDS, mode: 'every-instance' }, () => this.sweep());
    jobs.every('terminal.tickets', { seconds: SWEEP_SECONDS, mode: 'cluster-once' }, () => this.terminals.expireTickets());
  }

  /** The gateway's endpoint: at shutdown it stops accepting before the sessions are closed. */
  addEndpoint(endpoint: Pick<GatewayServer, 'stopAccepting'>): void {
    this.endpoints.push(endpoint);
  }

  /** Sessions held here (tests, metrics). */
  get size(): number {
    return this.live.size;
  }

  /** An accepted WebSocket: the agent's session is opened and the two are piped together until either ends. */
  start(ws: WebSocket, row: { id: string; agentId: number; cols: number; rows: number; shell: string | null }, by: CallerAt): void {
    const live: Live = { id: row.id, ws, by, openedAt: Date.now(), pending: 0, invalid: 0 };
    if (this.config.terminalRecording) {
      live.recording = new TerminalRecording(row.id, live.openedAt, (id, seq, lines) => this.terminals.appendRecording(id, seq, lines), (err) =>
        this.logger.warn(`terminal ${row.id}: a piece of its recording could not be written: ${err.message}`),
      );
    }
    this.live.set(row.id, live);
    ws.pause(); // nothing is read until the agent's session exists
    ws.on('message', (data: RawData, isBinary: boolean) => this.fromCaller(live, data, isBinary));
    ws.on('close', () => this.end(live, 'closed', TERMINAL_CLOSE.ended));
    const params: Record<string, unknown> = { cols: row.cols, rows: row.rows };
    if (row.shell !== null) params.shell = row.shell;
    this.sessions.open(row.agentId, 'terminal', params).then(
      (session) => this.piped(live, session),
      (err: Error) => {
        this.logger.warn(`terminal ${row.id}: the agent's session could not be opened: ${err.message}`);
        this.ended(live, { reason: 'agent_offline', error: true });
      },
    );
  }

  private piped(live: Live, session: AgentSession): void {
    live.session = session;
    session.onData(async (bytes) => {
      await send(live.ws, bytes);
      await live.recording?.output(bytes);
    });
    void session.ended.then((end) => this.ended(live, end));
    if (live.ending) session.close(live.ending.reason);
    else if (live.ws.readyState === WebSocket.OPEN) live.ws.resume();
  }

  /** A frame from the caller: binary, the terminal's input; text, a control message ({type: "resize", cols, rows}). */
  private fromCaller(live: Live, data: RawData, isBinary: boolean): void {
    const session = live.session;
    if (live.ending || !session) return;
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    if (!isBinary) return this.control(live, session, bytes.toString('utf8'));
    live.pending += bytes.length;
    if (live.pending > MAX_PENDING_INPUT) return this.end(live, 'closed', TERMINAL_CLOSE.tooMuchInput);
    live.ws.pause();
    session.write(bytes).then(
      () => {
        live.pending -= bytes.length;
        if (live.pending === 0 && !live.ending && live.ws.readyState === WebSocket.OPEN) live.ws.resume();
      },
      () => undefined, // the session ended: its end closes the socket
    );
  }

  private control(live: Live, session: AgentSession, text: string): void {
    const why = resizeError(text);
    if (why === null) {
      const { cols, rows } = JSON.parse(text) as { cols: number; rows: number };
      session.control({ type: 'resize', cols, rows });
      live.recording?.resize(cols, rows);
      return;
    }
    live.invalid++;
    if (live.invalid > MAX_INVALID_MESSAGES) return this.end(live, 'closed', TERMINAL_CLOSE.invalid);
    if (live.ws.readyState === WebSocket.OPEN) live.ws.send(JSON.stringify({ type: 'error', message: why }));
  }

  /** This side ends the session (once): the agent's session is closed with the reason; its end closes the socket. */
  private end(live: Live, reason: TerminalEndReason, code: number): void {
    if (live.ending) return;
    live.ending = { reason, code };
    // (not yet piped: `piped`, or the failed open, ends it with this reason)
    live.session?.close(reason);
  }

  /** The session ended (either side): the caller hears why, the row and the audit log get the figures. */
  private ended(live: Live, end: SessionEnd): void {
    if (live.finished) return;
    this.live.delete(live.id);
    const ws = live.ws;
    let reason: TerminalEndReason;
    let code: number = live.ending?.code ?? TERMINAL_CLOSE.ended;
    if (live.ending) reason = live.ending.reason;
    else if (KNOWN_REASONS.has(end.reason)) reason = end.reason as TerminalEndReason;
    else {
      // the agent's own words (it could not start the shell, a protocol error): said in an error frame
      reason = 'closed';
      code = TERMINAL_CLOSE.failed;
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'error', message: `the session ended: ${end.reason}` }));
    }
    const exitCode = reason === 'exit' && typeof end.code === 'number' ? end.code : null;
    if (ws.readyState === WebSocket.OPEN) {
      if (reason === 'exit') ws.send(JSON.stringify({ type: 'exit', code: exitCode }));
      ws.close(code, reason);
      setTimeout(() => ws.terminate(), 5_000).unref();
    }
    const session = live.session;
    live.finished = (live.recording?.finish() ?? Promise.resolve())
      .then(() => this.terminals.finish(live.id, { bytesIn: session?.bytesToAgent ?? 0, bytesOut: session?.bytesFromAgent ?? 0, endReason: reason, exitCode }, live.by))
      .catch((err: Error) => this.logger.error(`terminal ${live.id}: its end could not be recorded: ${err.message}`));
  }

  /** Every SWEEP_SECONDS: idle, past the max duration, or ended by an admin (on any instance, through the row). */
  async sweep(): Promise<void> {
    const now = Date.now();
    const idleMs = this.config.terminalIdleMinutes * 60_000;
    const maxMs = this.config.terminalMaxHours * 3_600_000;
    for (const live of [...this.live.values()]) {
      void live.recording?.flush();
      if (!live.session || live.ending) continue;
      if (now - live.session.lastActivity >= idleMs) this.end(live, 'idle', TERMINAL_CLOSE.ended);
      else if (now - live.openedAt >= maxMs) this.end(live, 'max_duration', TERMINAL_CLOSE.ended);
    }
    const open = [...this.live.values()].filter((l) => !l.ending).map((l) => l.id);
    for (const id of await this.terminals.endedByAdmin(open)) {
      const live = this.live.get(id);
      if (live) this.end(live, 'ended_by_admin', TERMINAL_CLOSE.ended);
    }
  }

  /** SIGTERM: new upgrades are refused, every session is closed (`closed`, 1001) and its row written. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.endpoints.map((e) => e.stopAccepting()));
    const all = [...this.live.values()];
    for (const live of all) {
      this.end(live, 'closed', TERMINAL_CLOSE.shuttingDown);
      if (!live.session) this.ended(live, { reason: 'closed' });
    }
    let timer: NodeJS.Timeout | undefined;
    const written = Promise.all(all.map((l) => (l.session ? l.session.ended.then(() => l.finished) : Promise.resolve(l.finished))));
    await Promise.race([written, new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)))]);
    clearTimeout(timer);
  }
}

/** Resolves once the bytes went to the caller's socket: the agent's next frame waits for it (back-pressure). */
function send(ws: WebSocket, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ws.readyState !== WebSocket.OPEN) return reject(new Error('the WebSocket is closed'));
    ws.send(bytes, { binary: true }, (err) => (err ? reject(err) : resolve()));
  });
}

/** Null for a valid resize message, else what is wrong with it. */
export function resizeError(text: string): string | null {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch {
    return 'not JSON: a text frame is a control message ({"type": "resize", "cols": N, "rows": N})';
  }
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return 'a control message is a JSON object';
  const { type, cols, rows } = m as Record<string, unknown>;
  if (type !== 'resize') return 'unknown type: the only control message is {"type": "resize", "cols": N, "rows": N}';
  for (const [name, v] of [['cols', cols], ['rows', rows]] as const) {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > TERMINAL_SIZE_MAX) return `${name} must be an integer from 1 to ${TERMINAL_SIZE_MAX}`;
  }
  return null;
}
