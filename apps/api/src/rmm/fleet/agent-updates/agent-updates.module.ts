import { Module } from '@nestjs/common';
import { AgentBinaries } from '../agent-binaries/agent-binaries.service';
import { AgentBinariesModule } from '../agent-binaries/agent-binaries.module';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { AgentUpdatesController } from './agent-updates.controller';
import { AgentUpdatesRepository } from './agent-updates.repository';
import { AGENT_BINARY_SOURCE, AgentUpdatesService } from './agent-updates.service';
import { AgentSigningKey } from '../agent-binaries/signing-key';

/**
 * Signed, staged agent self-update (docs/agent-binaries.md): the signing key, the rollout, GET /api/v3/agents/updates/.
 * The binaries it offers are AgentBinaries' (built lazily); the signing key's public half is what the installers embed.
 */
@Module({
  imports: [AgentBinariesModule, AlertsModule],
  controllers: [AgentUpdatesController],
  providers: [
    AgentSigningKey,
    AgentUpdatesRepository,
    AgentUpdatesService,
    { provide: AGENT_BINARY_SOURCE, useExisting: AgentBinaries },
  ],
  exports: [AgentSigningKey, AgentUpdatesService],
})
export class AgentUpdatesModule {}
