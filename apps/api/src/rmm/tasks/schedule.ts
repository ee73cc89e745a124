import { CronExpressionParser } from 'cron-parser';
import { invalid } from '../../common/errors/domain-error';

/**
 * A task's schedule: a five-field cron expression (minute hour day-of-month month day-of-week), in UTC.
 * Returns the next run after `from`, or throws a 400 naming `schedule` with the parser's reason.
 */
export function nextRun(schedule: string, from: Date): Date {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw invalid('validation error', [{ field: 'schedule', message: `a cron expression has 5 fields (minute hour day month weekday), got ${fields.length}` }]);
  }
  try {
    return CronExpressionParser.parse(schedule.trim(), { currentDate: from, tz: 'UTC', strict: false }).next().toDate();
  } catch (err) {
    throw invalid('validation error', [{ field: 'schedule', message: `invalid cron expression: ${(err as Error).message}` }]);
  }
}
