import { Module } from '@nestjs/common';
import { AuditModule } from '../../access/audit/audit.module';
import { AgentsModule } from '../../fleet/agents/agents.module';
import { FileUploadsRepository } from './file-uploads.repository';
import { ChunkBodyParser } from './files-http';
import { FilesController } from './files.controller';
import { FilesService } from './files.service';

/** Files on an agent (docs/files.md): browse, download, resumable upload, over the agent's own channel (sessions). */
@Module({
  imports: [AgentsModule, AuditModule],
  controllers: [FilesController],
  providers: [FileUploadsRepository, FilesService, ChunkBodyParser],
})
export class FilesModule {}
