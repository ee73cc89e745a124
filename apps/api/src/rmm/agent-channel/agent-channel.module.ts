import { Global, Module } from '@nestjs/common';
import { LocalRmmEvents, RmmEvents } from '../events/rmm-events';
import { AgentChannel, LocalAgentChannel } from './agent-channel';
import { AgentGateway } from './agent-gateway';
import { AgentPresenceRepository } from './agent-presence.repository';

/**
 * The seams between the REST API and live agents: AgentChannel (talk to an agent) and RmmEvents (what
 * happened). Single-instance implementations today; Redis-backed ones replace them here.
 */
@Global()
@Module({
  providers: [
    LocalAgentChannel,
    { provide: AgentChannel, useExisting: LocalAgentChannel },
    LocalRmmEvents,
    { provide: RmmEvents, useExisting: LocalRmmEvents },
    AgentPresenceRepository,
    AgentGateway,
  ],
  exports: [AgentChannel, LocalAgentChannel, RmmEvents, AgentGateway, AgentPresenceRepository],
})
export class AgentChannelModule {}
