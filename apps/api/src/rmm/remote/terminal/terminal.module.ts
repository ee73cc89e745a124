import { Module } from '@nestjs/common';
import { AuditModule } from '../../access/audit/audit.module';
import { AgentsModule } from '../../fleet/agents/agents.module';
import { LiveTerminals } from './live-terminals';
import { AgentTerminalController, TerminalSessionsController } from './terminal.controller';
import { TerminalGateway } from './terminal-gateway';
import { TerminalRepository } from './terminal.repository';
import { TerminalService } from './terminal.service';

/**
 * Remote terminals (docs/terminal.md): the sessions' API, the WebSocket /rmm/terminal/{session_id}/ and the
 * sessions this instance pipes to their agents. AgentChannel and AgentSessions come from AgentChannelModule
 * (global); UpgradeCallers from the global AccessModule.
 */
@Module({
  imports: [AgentsModule, AuditModule],
  controllers: [AgentTerminalController, TerminalSessionsController],
  providers: [TerminalRepository, TerminalService, LiveTerminals, TerminalGateway],
})
export class TerminalModule {}
