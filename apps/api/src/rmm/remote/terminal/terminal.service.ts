import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { TerminalSessionEntity } from '@app/entities';
import { Clock } from '../../../common/clock';
import { DomainError, notFound } from '../../../common/errors/domain-error';
import { AuditService } from '../../access/audit/audit.service';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { clientFilter, Principal, principalKey } from '../../common/principal';
import { AgentChannel } from '../../fleet/agent-channel/agent-channel';
import { AgentsErrorCode } from '../../fleet/agent-channel/agent-channel.errors';
import { AgentsService } from '../../fleet/agents/agents.service';
import { RuntimeConfig } from '../../../config/runtime-config';
import { Jobs } from '../../../common/jobs/jobs';
import { OpenTerminalDto, TerminalTicketDto, TICKET_SECONDS } from './terminal.dto';
import { TerminalErrorCode } from './terminal.errors';
import { asciicastHeader } from './terminal-recording';
import { TerminalEnd, TerminalRepository, TicketState } from './terminal.repository';

/** Sessions counting at once on one agent, and for one caller (an operator across their sign-ins, or a key). */
export const MAX_SESSIONS_PER_AGENT = 3;
export const MAX_SESSIONS_PER_CALLER = 10;
/** Chunks of a recording read per query while it is streamed. */
const RECORDING_READ_CHUNKS = 50;

/** Where a caller is, for the audit rows this feature writes itself. */
export interface CallerAt {
  principal: Principal;
  address: string | null;
  requestId: string | null;
}

/**
 * Remote terminals (docs/terminal.md): a session is created by POST with a one-time ticket, accepted by the
 * caller's WebSocket (TerminalGateway, LiveTerminals), and ended with its reason and byte counts. This holds the
 * rules: who may open one on which agent, the limits, the ticket, and the audit rows `terminal.open` and
 * `terminal.close`.
 */
@Injectable()
export class TerminalService {
  constructor(
    private readonly repo: TerminalRepository,
    private readonly agents: AgentsService,
    private readonly channel: AgentChannel,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly config: RuntimeConfig,
    jobs: Jobs,
  ) {
    // Once across the cluster, hourly: recordings past RMM_TERMINAL_RECORDING_DAYS.
    jobs.every('terminal.recordings', { seconds: 3_600, mode: 'cluster-once', atStart: true }, () => this.pruneRecordings());
  }

  /**
   * In this order: the agent (404, also when it is another client's than the caller's), its connection (409
   * "agent is offline"), the limits (429: MAX_SESSIONS_PER_AGENT, MAX_SESSIONS_PER_CALLER); then the session is
   * stored with a ticket valid TICKET_SECONDS, and audited.
   */
  async open(agentId: number, body: OpenTerminalDto, by: CallerAt): Promise<TerminalTicketDto> {
    if (!(await this.agents.exists(agentId, clientFilter(by.principal)))) throw notFound();
    if (!(await this.channel.isOnline(agentId))) throw new DomainError(AgentsErrorCode.NotConnected, 'agent is offline');
    const now = this.clock.now();
    const id = randomUUID();
    const stored = await this.repo.insertWithinLimits(
      {
        id,
        agentId,
        openedBy: by.principal.name,
        caller: principalKey(by.principal),
        cols: body.cols,
        rows: body.rows,
        shell: body.shell ?? null,
        createdAt: now,
        ticketExpiresAt: new Date(now.getTime() + TICKET_SECONDS * 1000),
      },
      { perAgent: MAX_SESSIONS_PER_AGENT, perCaller: MAX_SESSIONS_PER_CALLER },
    );
    if (stored === 'agent') throw new DomainError(TerminalErrorCode.TooMany, `too many terminal sessions on this agent (at most ${MAX_SESSIONS_PER_AGENT})`);
    if (stored === 'caller') throw new DomainError(TerminalErrorCode.TooMany, `too many terminal sessions for this caller (at most ${MAX_SESSIONS_PER_CALLER})`);
    this.record(by, 'terminal.open', stored, 'opened', { agent_id: String(agentId), cols: body.cols, rows: body.rows, shell: body.shell ?? null });
    return { session_id: id, url: `/rmm/terminal/${id}/`, expires_in: TICKET_SECONDS };
  }

  /** The ticket taken by the caller's WebSocket (once), or why not. */
  accept(id: string, principal: Principal): Promise<TerminalSessionEntity | TicketState> {
    return this.repo.accept(id, principalKey(principal), this.clock.now());
  }

  /** Records a session's end and writes `terminal.close` with its figures. */
  async finish(id: string, end: Omit<TerminalEnd, 'closedAt'>, by: CallerAt): Promise<void> {
    const row = await this.repo.finish(id, { ...end, closedAt: this.clock.now() });
    if (!row) return;
    this.record(by, 'terminal.close', row, row.endReason ?? end.endReason, {
      agent_id: String(row.agentId),
      bytes_in: row.bytesIn,
      bytes_out: row.bytesOut,
      end_reason: row.endReason,
      exit_code: row.exitCode,
      opened_at: row.openedAt?.toISOString() ?? null,
      closed_at: row.closedAt?.toISOString() ?? null,
    });
  }

  /** Unused tickets past their expiry: ended `expired`. */
  expireTickets(): Promise<string[]> {
    return this.repo.expireTickets(this.clock.now());
  }

  /** Those of the sessions held here that an admin ended. */
  endedByAdmin(ids: string[]): Promise<string[]> {
    return this.repo.endedByAdmin(ids);
  }

  /** DELETE by an admin: 404 for no such session, 409 for one that has ended; the instance holding it closes it within 5 s. */
  async endByAdmin(id: string): Promise<void> {
    const ended = await this.repo.endByAdmin(id, this.clock.now());
    if (ended === null) throw notFound();
    if (ended === 'ended') throw new DomainError(TerminalErrorCode.Ended, 'the session has ended already');
  }

  /** Appends a chunk to a session's recording (TerminalRecording). */
  appendRecording(sessionId: string, seq: number, lines: string): Promise<void> {
    return this.repo.appendChunk(sessionId, seq, lines);
  }

  /**
   * A session's recording as asciicast v2: the header, then its chunks, read RECORDING_READ_CHUNKS at a time as the
   * client reads (never the whole recording in memory). 404 for no such session, or one without a recording.
   */
  async recording(id: string): Promise<Readable> {
    const row = await this.repo.get(id);
    if (!row || !(await this.repo.hasRecording(id))) throw notFound();
    const repo = this.repo;
    async function* lines(): AsyncGenerator<string> {
      yield asciicastHeader(row!);
      for (let from = 0; ; ) {
        const chunks = await repo.chunks(id, from, RECORDING_READ_CHUNKS);
        for (const c of chunks) yield c.lines;
        if (chunks.length < RECORDING_READ_CHUNKS) return;
        from = chunks[chunks.length - 1].seq + 1;
      }
    }
    return Readable.from(lines());
  }

  /** Deletes recordings of sessions closed more than RMM_TERMINAL_RECORDING_DAYS ago. */
  pruneRecordings(): Promise<number> {
    return this.repo.deleteRecordingsBefore(new Date(this.clock.now().getTime() - this.config.terminalRecordingDays * 86_400_000));
  }

  list(filter: { agentId?: number }, clients: ClientScope, page: Page): Promise<[TerminalSessionEntity[], number]> {
    return this.repo.list(filter, clients, page);
  }

  private record(by: CallerAt, action: string, row: TerminalSessionEntity, outcome: string, after: Record<string, unknown>): void {
    this.audit.enqueue({
      at: this.clock.now(),
      actorKind: by.principal.kind,
      actorId: String(by.principal.id),
      actorName: by.principal.name,
      method: null,
      action,
      target: `/api/v3/terminal-sessions/${row.id}/`,
      clientAddress: by.address,
      status: null,
      outcome,
      requestId: by.requestId,
      changes: { before: null, after },
    });
  }
}
