import { Module } from '@nestjs/common';
import { AgentBinariesModule } from './fleet/agent-binaries/agent-binaries.module';
import { AgentUpdatesModule } from './fleet/agent-updates/agent-updates.module';
import { AgentsModule } from './fleet/agents/agents.module';
import { AlertsModule } from './alerting/alerts/alerts.module';
import { ApiKeysModule } from './access/api-keys/api-keys.module';
import { AuditModule } from './access/audit/audit.module';
import { SystemModule } from './access/system/system.module';
import { ChecksModule } from './automation/checks/checks.module';
import { ClientsModule } from './tenancy/clients/clients.module';
import { CustomFieldsModule } from './tenancy/custom-fields/custom-fields.module';
import { AccessModule, RmmThrottlerStorageModule } from './access/access.module';
import { DeploymentsModule } from './fleet/deployments/deployments.module';
import { EventsModule } from './events/events.module';
import { NotificationsModule } from './alerting/notifications/notifications.module';
import { ScriptsModule } from './automation/scripts/scripts.module';
import { TasksModule } from './automation/tasks/tasks.module';
import { PoliciesModule } from './automation/policies/policies.module';
import { PolicyEngineModule } from './automation/policies/policy-engine.module';
import { RegistrationModule } from './fleet/agent-registration/registration.module';
import { FilesModule } from './remote/files/files.module';
import { TerminalModule } from './remote/terminal/terminal.module';

/** (B) The management backend under /api/v3: one module per resource, guarded by AccessModule. */
@Module({
  imports: [
    RmmThrottlerStorageModule,
    AccessModule,
    ApiKeysModule,
    ClientsModule,
    CustomFieldsModule,
    AgentBinariesModule,
    AgentUpdatesModule,
    DeploymentsModule,
    AgentsModule,
    ScriptsModule,
    ChecksModule,
    TasksModule,
    PoliciesModule,
    PolicyEngineModule,
    AlertsModule,
    RegistrationModule,
    AuditModule,
    SystemModule,
    EventsModule,
    NotificationsModule,
    FilesModule,
    TerminalModule,
  ],
})
export class RmmModule {}
