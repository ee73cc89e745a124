import { CronExpressionParser } from 'cron-parser';
import { invalid } from '../../../common/errors/domain-error';

const FIELDS_MESSAGE = 'a cron expression has 5 fields (minute hour day month weekday) or 6 (second minute hour day month weekday)';

/**
 * A task's schedule, in UTC: a five-field cron expression (minute hour day-of-month month day-of-week), or a
 * six-field one whose first field is seconds (`*\/2 * * * * *`: every two seconds; every second is the finest).
 * Returns the first due time strictly after `from`, or throws a 400 naming `schedule` with the parser's reason.
 */
export function nextRun(schedule: string, from: Date): Date {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw invalid('validation error', [{ field: 'schedule', message: `${FIELDS_MESSAGE}, got ${fields[0] === '' ? 0 : fields.length}` }]);
  }
  try {
    return CronExpressionParser.parse(fields.join(' '), { currentDate: from, tz: 'UTC', strict: false }).next().toDate();
  } catch (err) {
    throw invalid('validation error', [{ field: 'schedule', message: `invalid cron expression: ${(err as Error).message}` }]);
  }
}

/**
 * The catch-up rule: a task claimed at `now` for the due time `due` next runs at the first due time after
 * both. A server that was down (or busy) fires one run for the missed due time, then is back on schedule:
 * never a burst of the runs it missed.
 */
export function nextAfterClaim(schedule: string, due: Date, now: Date): Date {
  return nextRun(schedule, due.getTime() > now.getTime() ? due : now);
}
