import { Injectable, Logger } from '@nestjs/common';
import { OnGatewayConnection, OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { TerminalSessionEntity } from '@app/entities';
import { isUuid } from '../../../common/values';
import { GatewayServer, UpgradeDecision } from '../../../common/ws/gateway-server';
import { Principal } from '../../common/principal';
import { UpgradeCallers } from '../../common/upgrade-callers';
import { LiveTerminals, MAX_PENDING_INPUT, TERMINAL_CLOSE } from './live-terminals';
import { TerminalService } from './terminal.service';

/** The terminal WebSocket's path, as the docs write it. */
export const TERMINAL_WS_PATH = '/rmm/terminal/{session_id}/';

/** An accepted terminal WebSocket: its session (the ticket taken) and its caller. */
interface Admitted {
  row: TerminalSessionEntity;
  principal: Principal;
  address: string | null;
}

/**
 * The terminal WebSocket `/rmm/terminal/{session_id}/` (docs/terminal.md): the caller that created the session
 * (POST /api/v3/agents/{agent_id}/terminal/) opens it once within the ticket's 60 s, authenticated as every
 * management WebSocket is (UpgradeCallers: key by header or ?api_key=, or the session cookie from an allowed
 * Origin; scope terminal), before the upgrade completes. Refusals: 401, 403 (Origin, scope), 404 (no such session
 * of this caller), 410 (the ticket expired), 409 (the ticket was used, or the session ended). LiveTerminals pipes
 * the accepted socket to the agent.
 */
@WebSocketGateway({ path: TERMINAL_WS_PATH, maxPayload: MAX_PENDING_INPUT, perMessageDeflate: false, closeTimeout: 5_000 })
@Injectable()
export class TerminalGateway implements OnGatewayInit<GatewayServer<Admitted>>, OnGatewayConnection {
  private readonly logger = new Logger('terminal');

  constructor(
    private readonly upgrades: UpgradeCallers,
    private readonly terminals: TerminalService,
    private readonly live: LiveTerminals,
  ) {}

  afterInit(endpoint: GatewayServer<Admitted>): void {
    this.live.addEndpoint(endpoint);
    endpoint.serve({
      name: 'terminal',
      logger: this.logger,
      admit: (req, params) => this.admit(req, params.session_id),
      unavailable: { status: 503, detail: 'the database is not available, retry shortly', headers: { 'Retry-After': '5' } },
      shuttingDown: { code: TERMINAL_CLOSE.shuttingDown, reason: 'closed' },
      label: ({ row }) => `terminal ${row.id}`,
    });
  }

  handleConnection(ws: WebSocket, _req: IncomingMessage, admitted: Admitted): void {
    this.live.start(ws, admitted.row, { principal: admitted.principal, address: admitted.address, requestId: null });
  }

  /** The caller (401, 403), then the ticket, taken by this very upgrade (404, 410, 409). */
  private async admit(req: IncomingMessage, sessionId: string | undefined): Promise<UpgradeDecision<Admitted>> {
    const caller = await this.upgrades.authenticate(req, 'terminal', 'terminal');
    if ('refuse' in caller) return caller;
    if (!isUuid(sessionId)) return { refuse: { status: 404, detail: 'no such terminal session' } };
    const taken = await this.terminals.accept(sessionId.toLowerCase(), caller.principal);
    switch (taken) {
      case 'unknown':
        return { refuse: { status: 404, detail: 'no such terminal session' } };
      case 'expired':
        return { refuse: { status: 410, detail: 'the ticket has expired: open a new session' } };
      case 'used':
        return { refuse: { status: 409, detail: 'the ticket has been used: open a new session' } };
      default:
        return { accept: { row: taken, principal: caller.principal, address: req.socket.remoteAddress ?? null } };
    }
  }
}
