import { Global, Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { AgentPresenceRepository } from './agent-presence.repository';
import { AvailabilityAlerts } from './availability-alerts';

/**
 * Agents' presence (online, offline, overdue: AgentPresenceRepository, the one owner of those columns) and what
 * follows from it once (AvailabilityAlerts: agent_overdue opened and resolved). Global: the agent channel, the check
 * sync and the run queue act on an agent's connects.
 */
@Global()
@Module({
  imports: [AlertsModule],
  providers: [AgentPresenceRepository, AvailabilityAlerts],
  exports: [AgentPresenceRepository],
})
export class PresenceModule {}
