import { Module } from '@nestjs/common';
import { AuditModule } from '../../access/audit/audit.module';
import { AgentCustomFieldsController, ClientCustomFieldsController } from './custom-field-values.controller';
import { CustomFieldsController } from './custom-fields.controller';
import { CustomFieldsRepository } from './custom-fields.repository';
import { CustomFieldsService } from './custom-fields.service';

/** Custom fields: definitions, values of agents, sites and clients, and the placeholders scripts' arguments carry (docs/custom-fields.md). */
@Module({
  imports: [AuditModule],
  controllers: [CustomFieldsController, AgentCustomFieldsController, ClientCustomFieldsController],
  providers: [CustomFieldsRepository, CustomFieldsService],
  exports: [CustomFieldsService],
})
export class CustomFieldsModule {}
