import { Global, Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { AgentPresenceRepository } from './agent-presence.repository';
import { AgentPresenceService } from './agent-presence.service';
import { AvailabilityAlerts } from './availability-alerts';

/**
 * Agents' presence (online, offline, overdue: AgentPresenceService, the one owner of those columns, on the SQL of
 * AgentPresenceRepository) and what
 * follows from it once (AvailabilityAlerts: agent_overdue opened and resolved). Global: the agent channel, the check
 * sync and the run queue act on an agent's connects.
 */
@Global()
@Module({
  imports: [AlertsModule],
  providers: [AgentPresenceRepository, AgentPresenceService, AvailabilityAlerts],
  exports: [AgentPresenceService],
})
export class PresenceModule {}
