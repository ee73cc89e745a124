import { Module } from '@nestjs/common';
import { DeliveryWorker } from './delivery-worker';
import { NotificationOutboxModule } from './notification-outbox';
import { NotificationSenders } from './notification-senders';
import { NotificationsController } from './notifications.controller';
import { NotificationsRepository } from './notifications.repository';
import { NotificationsService } from './notifications.service';

/**
 * Notification channels (docs/notifications.md): the REST API, the delivery worker of this instance, and (global,
 * NotificationOutboxModule) the outbox that alerts, presence, tasks and registration write into.
 */
@Module({
  imports: [NotificationOutboxModule],
  controllers: [NotificationsController],
  providers: [NotificationsRepository, NotificationsService, NotificationSenders, DeliveryWorker],
})
export class NotificationsModule {}
