import { Module } from '@nestjs/common';
import { AgentsModule } from '../fleet/agents/agents.module';
import { AlertsModule } from '../alerting/alerts/alerts.module';
import { ApiKeysModule } from '../access/api-keys/api-keys.module';
import { EventsGateway } from './events-gateway';
import { EventsHub } from './events-hub';
import { EventsRepository } from './events.repository';
import { FleetGateway } from './fleet-gateway';

/**
 * The events WebSockets /rmm/{agent_id}/ and /rmm/fleet/ (docs/events.md) and their subscribers (EventsHub).
 * RmmEvents itself is provided by AgentChannelModule; Callers and KeyUses by the global AccessModule.
 */
@Module({
  imports: [AgentsModule, AlertsModule, ApiKeysModule],
  providers: [EventsRepository, EventsHub, EventsGateway, FleetGateway],
  exports: [EventsHub, EventsGateway, FleetGateway],
})
export class EventsModule {}
