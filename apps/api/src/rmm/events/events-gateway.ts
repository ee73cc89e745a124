import { Injectable, Logger } from '@nestjs/common';
import { OnGatewayConnection, OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { Clock } from '../../common/clock';
import { CommonErrorCode, DomainError } from '../../common/errors/domain-error';
import { parseId } from '../../common/values';
import { GatewayServer, UpgradeDecision } from '../../common/ws/gateway-server';
import { AgentsService } from '../fleet/agents/agents.service';
import { toAlertDto } from '../common/resources/alert.dto';
import { AlertsService } from '../alerting/alerts/alerts.service';
import { canSeeClient, Principal, principalKey } from '../common/principal';
import { EventsRepository } from './events.repository';
import { CLOSE_TIMEOUT_MS, EVENTS_CLOSE, EventsHub, labelOf, MAX_INBOUND_BYTES, Subscriber } from './events-hub';
import { toWire } from './events-wire';

export { CLOSE_TIMEOUT_MS, EVENTS_CLOSE, MAX_BUFFERED_BYTES, MAX_SUBSCRIPTIONS_PER_KEY, PING_MS, RECHECK_MS } from './events-hub';

/** The events WebSocket's path, as the docs write it. */
export const EVENTS_WS_PATH = '/rmm/{agent_id}/';

/** An admitted subscriber: who it is and its agent. */
interface Admitted {
  principal: Principal;
  agentId: number;
}

/**
 * The events WebSocket `/rmm/{agent_id}/` (docs/events.md, docs/asyncapi.yaml): subscribers authenticate with a
 * management API key (X-API-KEY or ?api_key=) or the console's session cookie (from an allowed Origin), scope
 * agents:read, before the upgrade completes; an agent of a client the caller may not see is 404, as an unknown one.
 * They get `hello`, then every event of that agent as it happens, from EventsHub, which holds the subscribers of
 * both events WebSockets and is their only writer.
 * A Nest gateway served by GatewayWsAdapter (common/ws) at the parameterised path `/rmm/{agent_id}/` (and
 * `/rmm/{agent_id}`; a malformed id is the gateway's 404, after the caller is checked); it has no message handlers.
 */
// closeTimeout: ws 8.23 takes it (@types/ws 8.18 does not declare it yet; GatewayOptions does).
@WebSocketGateway({ path: EVENTS_WS_PATH, maxPayload: MAX_INBOUND_BYTES, perMessageDeflate: false, closeTimeout: CLOSE_TIMEOUT_MS })
@Injectable()
export class EventsGateway implements OnGatewayInit<GatewayServer<Admitted>>, OnGatewayConnection {
  private readonly logger = new Logger('events-ws');

  constructor(
    private readonly hub: EventsHub,
    private readonly agents: AgentsService,
    private readonly alerts: AlertsService,
    private readonly repo: EventsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The adapter's endpoint for /rmm/{agent_id}/ (on the server's one upgrade router, beside the agent channel):
   * subscribers are admitted (401, 403, 404, then 429) before any WebSocket exists; what they send is ignored.
   */
  afterInit(endpoint: GatewayServer<Admitted>): void {
    this.hub.addEndpoint(endpoint);
    endpoint.serve({
      name: 'events',
      logger: this.logger,
      admit: (req, params) => this.admit(req, params.agent_id),
      confirm: (admitted) => this.hub.confirm(admitted.principal),
      unavailable: { status: 503, detail: 'the database is not available, retry shortly', headers: { 'Retry-After': '5' } },
      shuttingDown: EVENTS_CLOSE.shuttingDown,
      label: ({ agentId, principal }) => labelOf({ agentId, caller: principalKey(principal) }),
    });
  }

  /** An admitted subscriber's connection (the adapter's `connection`: its caller and agent are what `admit` accepted). */
  handleConnection(ws: WebSocket, _req: IncomingMessage, admitted: Admitted): void {
    const sub = this.hub.subscribe(ws, admitted.principal, admitted.agentId);
    void this.hello(sub, admitted.agentId).catch((err: Error) => {
      this.logger.warn(`hello for agent ${admitted.agentId} failed: ${err.message}`);
      this.hub.close(sub, EVENTS_CLOSE.internal);
    });
  }

  /** How many subscribers this instance holds for an agent (tests, metrics). */
  subscribers(agentId: number): number {
    return this.hub.subscribers(agentId);
  }

  /** In this order: the caller (401, 403), the agent (404, also when the caller may not see its client); then (confirm) 429. */
  private async admit(req: IncomingMessage, rawAgentId: string | undefined): Promise<UpgradeDecision<Admitted>> {
    const caller = await this.hub.authenticate(req);
    if ('refuse' in caller) return caller;
    const agentId = parseId(rawAgentId);
    const clientId = agentId === null ? undefined : (await this.repo.clientsOf([agentId])).get(agentId);
    if (agentId === null || clientId === undefined || !canSeeClient(caller.principal, clientId)) return { refuse: { status: 404, detail: 'Not found' } };
    this.hub.clients.remember(agentId, clientId);
    return { accept: { principal: caller.principal, agentId } };
  }

  /** The first message: the agent as GET /api/v3/agents/{id}/ shows it and its open alerts; then what came meanwhile. */
  private async hello(sub: Subscriber, agentId: number): Promise<void> {
    let agent;
    try {
      agent = await this.agents.detail(agentId);
    } catch (err) {
      if (err instanceof DomainError && err.code === CommonErrorCode.NotFound) return this.hub.close(sub, EVENTS_CLOSE.agentDeleted);
      throw err;
    }
    const alerts = await this.alerts.openFor(agentId);
    this.hub.greet(sub, toWire('hello', { agentId, hello: { ...agent, alerts: alerts.map(toAlertDto) } }, this.clock.now()));
  }
}
