import { Module } from '@nestjs/common';
import { AgentBinariesModule } from './agent-binaries/agent-binaries.module';
import { AgentUpdatesModule } from './agent-updates/agent-updates.module';
import { AgentsModule } from './agents/agents.module';
import { AlertsModule } from './alerts/alerts.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditModule } from './audit/audit.module';
import { ChecksModule } from './checks/checks.module';
import { ClientsModule } from './clients/clients.module';
import { RmmCoreModule, RmmThrottlerStorageModule } from './common/rmm-core.module';
import { DeploymentsModule } from './deployments/deployments.module';
import { EventsModule } from './events/events.module';
import { NotificationsModule } from './notifications/notifications.module';
import { ScriptsModule } from './scripts/scripts.module';
import { TasksModule } from './tasks/tasks.module';
import { RegistrationModule } from './agent-registration/registration.module';

/** (B) The management backend under /api/v3: one module per resource, guarded by RmmCoreModule. */
@Module({
  imports: [
    RmmThrottlerStorageModule,
    RmmCoreModule,
    ApiKeysModule,
    ClientsModule,
    AgentBinariesModule,
    AgentUpdatesModule,
    DeploymentsModule,
    AgentsModule,
    ScriptsModule,
    ChecksModule,
    TasksModule,
    AlertsModule,
    RegistrationModule,
    AuditModule,
    EventsModule,
    NotificationsModule,
  ],
})
export class RmmModule {}
