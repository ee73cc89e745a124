import { Injectable, Logger } from '@nestjs/common';
import { OnGatewayConnection, OnGatewayInit, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { Clock } from '../../common/clock';
import { GatewayServer, UpgradeDecision } from '../../common/ws/gateway-server';
import { Principal, principalKey } from '../common/principal';
import { EventsRepository } from './events.repository';
import { CLOSE_TIMEOUT_MS, EVENTS_CLOSE, EventsHub, labelOf, MAX_INBOUND_BYTES, Subscriber } from './events-hub';
import { fleetHello } from './events-wire';

/** The fleet events WebSocket's path, as the docs write it (also served without the trailing slash). */
export const FLEET_WS_PATH = '/rmm/fleet/';

/** An admitted fleet subscriber: who it is. */
interface Admitted {
  principal: Principal;
}

/**
 * The fleet events WebSocket `/rmm/fleet/` (docs/events.md, docs/asyncapi.yaml): for every agent the caller may
 * see (every agent, or those of the clients it is limited to), its presence (`agent.online`, `agent.offline`,
 * `agent.overdue`), its record (`agent.updated`) and its alerts (`alert.*`), in the per-agent WebSocket's envelope,
 * after a small `hello` (how many agents the caller sees; the list itself is read over HTTP). Admitted as
 * /rmm/{agent_id}/ is (401, 403, 429), by EventsHub, which holds and writes to the subscribers of both.
 * Its path is literal, so the upgrade router tries it before `/rmm/{agent_id}/` (common/http/upgrade-router.ts).
 */
@WebSocketGateway({ path: FLEET_WS_PATH, maxPayload: MAX_INBOUND_BYTES, perMessageDeflate: false, closeTimeout: CLOSE_TIMEOUT_MS })
@Injectable()
export class FleetGateway implements OnGatewayInit<GatewayServer<Admitted>>, OnGatewayConnection {
  private readonly logger = new Logger('events-ws');

  constructor(
    private readonly hub: EventsHub,
    private readonly repo: EventsRepository,
    private readonly clock: Clock,
  ) {}

  afterInit(endpoint: GatewayServer<Admitted>): void {
    this.hub.addEndpoint(endpoint);
    endpoint.serve({
      name: 'fleet events',
      logger: this.logger,
      admit: (req) => this.admit(req),
      confirm: (admitted) => this.hub.confirm(admitted.principal),
      unavailable: { status: 503, detail: 'the database is not available, retry shortly', headers: { 'Retry-After': '5' } },
      shuttingDown: EVENTS_CLOSE.shuttingDown,
      label: ({ principal }) => labelOf({ agentId: null, caller: principalKey(principal) }),
    });
  }

  handleConnection(ws: WebSocket, _req: IncomingMessage, admitted: Admitted): void {
    const sub = this.hub.subscribe(ws, admitted.principal, null);
    void this.hello(sub).catch((err: Error) => {
      this.logger.warn(`fleet hello failed: ${err.message}`);
      this.hub.close(sub, EVENTS_CLOSE.internal);
    });
  }

  /** How many fleet subscribers this instance holds (tests, metrics). */
  subscribers(): number {
    return this.hub.fleetSubscribers();
  }

  private async admit(req: IncomingMessage): Promise<UpgradeDecision<Admitted>> {
    const caller = await this.hub.authenticate(req);
    if ('refuse' in caller) return caller;
    return { accept: { principal: caller.principal } };
  }

  /** The first message: how many agents the caller sees now (one count), and the clients it is limited to. */
  private async hello(sub: Subscriber): Promise<void> {
    const { clients } = sub.principal;
    const agents = await this.repo.countAgents(clients);
    this.hub.greet(sub, fleetHello({ agents, clients: clients === null ? null : [...clients] }, this.clock.now()));
  }
}
