import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AlertsModule } from '../alerts/alerts.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { EventsGateway } from './events-gateway';
import { EventsRepository } from './events.repository';

/** The events WebSocket /rmm/{agent_id}/ (docs/events.md). RmmEvents itself is provided by AgentChannelModule. */
@Module({
  imports: [AgentsModule, AlertsModule, ApiKeysModule],
  providers: [EventsRepository, EventsGateway],
  exports: [EventsGateway],
})
export class EventsModule {}
