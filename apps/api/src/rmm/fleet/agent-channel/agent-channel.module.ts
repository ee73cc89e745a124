import { Global, Module } from '@nestjs/common';
import { Jobs } from '../../../common/jobs/jobs';
import { RedisConnections } from '../../../common/redis/redis.module';
import { RedisPubSub } from '../../../common/redis/redis-pubsub';
import { AgentChannel, LocalAgentChannel } from './agent-channel';
import { AgentGateway } from './agent-gateway';
import { AgentSessions } from './agent-sessions';
import { AgentPingController } from './agent-ping.controller';
import { AgentPingService } from './agent-ping.service';
import { PresenceModule } from '../presence/presence.module';
import { RedisAgentChannel } from './redis-agent-channel';

/**
 * The seam between the REST API and live agents: AgentChannel (talk to an agent), and the gateway that holds
 * their connections. Without REDIS_URL the single-instance channel, and no Redis connection; with it the
 * Redis-backed one (several instances share agents), built on the same local one. GET /agent/v1/ping checks an
 * agent's credentials without a connection (no presence).
 */
@Global()
@Module({
  imports: [PresenceModule],
  controllers: [AgentPingController],
  providers: [
    LocalAgentChannel,
    {
      provide: AgentChannel,
      inject: [RedisConnections, LocalAgentChannel, RedisPubSub, Jobs],
      useFactory: (redis: RedisConnections, local: LocalAgentChannel, bus: RedisPubSub, jobs: Jobs): AgentChannel =>
        redis.enabled ? new RedisAgentChannel(local, bus, jobs) : local,
    },
    AgentSessions,
    AgentGateway,
    AgentPingService,
  ],
  exports: [AgentChannel, LocalAgentChannel, AgentGateway, AgentSessions],
})
export class AgentChannelModule {}
