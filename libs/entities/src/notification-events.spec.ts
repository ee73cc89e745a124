import { NOTIFICATION_EVENTS } from './enums';
import { eventsNeverSent, NOTIFICATION_EVENT_SEVERITY } from './notification-events';

describe('eventsNeverSent (a channel that lists an event its min_severity always drops)', () => {
  it('names the events of a fixed severity below min_severity (issue 29: agent.online under warning was dropped silently)', () => {
    expect(eventsNeverSent(['alert.created', 'agent.online', 'enrollment.completed'], 'warning')).toEqual(['agent.online', 'enrollment.completed']);
    expect(eventsNeverSent(['agent.offline', 'agent.overdue', 'task.run'], 'error')).toEqual(['agent.offline']);
    expect(eventsNeverSent([...NOTIFICATION_EVENTS], 'info')).toEqual([]);
  });

  it('never names alert.* (an alert has any severity) nor task.run (only failed runs are sent, at error)', () => {
    for (const min of ['info', 'warning', 'error'] as const) {
      expect(eventsNeverSent(['alert.created', 'alert.resolved', 'alert.acknowledged', 'task.run', 'agent.overdue'], min)).toEqual([]);
    }
  });

  it('counts agent.online listed with agent.offline as able to fire: the recovery of each offline that was sent', () => {
    expect(eventsNeverSent(['agent.offline', 'agent.online'], 'warning')).toEqual([]);
    // …but agent.offline itself never reaches error (its recovery follows only an offline that was sent)
    expect(eventsNeverSent(['agent.offline', 'agent.online'], 'error')).toEqual(['agent.offline']);
    expect(eventsNeverSent(['agent.overdue', 'agent.online'], 'error')).toEqual(['agent.online']);
  });

  it('gives every event a severity, or null for the alerts', () => {
    expect(Object.keys(NOTIFICATION_EVENT_SEVERITY).sort()).toEqual([...NOTIFICATION_EVENTS].sort());
  });
});
