import { Global, Module } from '@nestjs/common';
import { RedisConnections } from '../../../common/redis/redis.module';
import { RedisPubSub } from '../../../common/redis/redis-pubsub';
import { RedisRmmEvents } from '../../common/bus/redis-rmm-events';
import { LocalRmmEvents, RmmEvents } from '../../common/bus/rmm-events';
import { AgentChannel, LocalAgentChannel } from './agent-channel';
import { AgentGateway } from './agent-gateway';
import { AgentPresenceRepository } from '../presence/agent-presence.repository';
import { RedisAgentChannel } from './redis-agent-channel';

/**
 * The seams between the REST API and live agents: AgentChannel (talk to an agent) and RmmEvents (what
 * happened). Without REDIS_URL the single-instance implementations, and no Redis connection; with it the
 * Redis-backed ones (several instances share agents and events), built on the same local ones.
 */
@Global()
@Module({
  providers: [
    LocalAgentChannel,
    LocalRmmEvents,
    {
      provide: AgentChannel,
      inject: [RedisConnections, LocalAgentChannel, RedisPubSub],
      useFactory: (redis: RedisConnections, local: LocalAgentChannel, bus: RedisPubSub): AgentChannel => (redis.enabled ? new RedisAgentChannel(local, bus) : local),
    },
    {
      provide: RmmEvents,
      inject: [RedisConnections, LocalRmmEvents, RedisPubSub],
      useFactory: (redis: RedisConnections, local: LocalRmmEvents, bus: RedisPubSub): RmmEvents => (redis.enabled ? new RedisRmmEvents(local, bus) : local),
    },
    AgentPresenceRepository,
    AgentGateway,
  ],
  exports: [AgentChannel, LocalAgentChannel, RmmEvents, AgentGateway, AgentPresenceRepository],
})
export class AgentChannelModule {}
