import { Module } from '@nestjs/common';
import { AgentBinaries } from './agent-binaries.service';
import { AgentBinaryBuilder } from './agent-binary-builder';
import { AgentDownloadController } from './agent-download.controller';
import { updateKeyProvider, AGENT_UPDATE_PUBLIC_KEY } from './agent-update-key';

/** The agent's single-file binaries: AgentBinaries (built lazily), GET /agent/v1/download/{target}, and the update key the installers embed. */
@Module({
  controllers: [AgentDownloadController],
  providers: [AgentBinaries, AgentBinaryBuilder, updateKeyProvider],
  exports: [AgentBinaries, AGENT_UPDATE_PUBLIC_KEY],
})
export class AgentBinariesModule {}
