import { ALERT_SEVERITIES, AlertSeverity, NotificationEvent } from './enums';

/**
 * The severity each notification event is sent with (docs/notifications.md): null for alert.*, which carry their
 * alert's (any severity). The server's outbox writes these (EVENT_SEVERITY in notification-outbox.ts, which its
 * spec keeps equal); the console's form shows them beside each event.
 */
export const NOTIFICATION_EVENT_SEVERITY: Record<NotificationEvent, AlertSeverity | null> = {
  'alert.created': null,
  'alert.resolved': null,
  'alert.acknowledged': null,
  'agent.offline': 'warning',
  'agent.overdue': 'error',
  'agent.online': 'info',
  'task.run': 'error',
  'enrollment.completed': 'info',
};

/**
 * Recovery events: sent, whatever min_severity, after each notification of the event they recover that the channel
 * was sent (a page is followed by its all-clear), so they can fire in a channel that also lists that event.
 */
export const RECOVERS: Partial<Record<NotificationEvent, NotificationEvent>> = { 'agent.online': 'agent.offline' };

const rank = (s: AlertSeverity): number => ALERT_SEVERITIES.indexOf(s);

/**
 * The events of a channel that can never be sent: of a fixed severity below its min_severity, unless it is the
 * recovery of an event the channel also lists (RECOVERS). The API refuses such a channel (400 naming them), and
 * the console's form says so before it is sent.
 */
export function eventsNeverSent(events: readonly NotificationEvent[], minSeverity: AlertSeverity): NotificationEvent[] {
  return [...new Set(events)].filter((event) => {
    const severity = NOTIFICATION_EVENT_SEVERITY[event];
    if (severity === null || rank(severity) >= rank(minSeverity)) return false;
    const recovered = RECOVERS[event];
    return recovered === undefined || !events.includes(recovered);
  });
}
