import { Module } from '@nestjs/common';
import { AlertsController } from './alerts.controller';
import { AlertsRepository } from './alerts.repository';
import { AlertsService } from './alerts.service';

/** Alerts: the REST API, and the one way the server opens and resolves alerts by itself (AlertsService.raise / resolveBySystem). */
@Module({
  controllers: [AlertsController],
  providers: [AlertsRepository, AlertsService],
  exports: [AlertsService],
})
export class AlertsModule {}
