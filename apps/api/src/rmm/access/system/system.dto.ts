import { ApiProperty } from '@nestjs/swagger';
import { JOB_MODES, JOB_STATES, JobMode, JobState } from '@app/entities';
import type { InstanceJobFigures } from '../../../jobs/job-states.repository';

/** One periodic job on one instance (GET /api/v3/system/jobs/): what it is and how its runs went. */
export class SystemJobDto {
  @ApiProperty({ example: 'presence.flush', description: 'The job (docs/decisions.md, "Periodic jobs", lists them)' }) name: string;
  @ApiProperty({ format: 'uuid', description: 'The instance (a server process; a new id at each start)' }) instance: string;
  @ApiProperty({ enum: JOB_MODES, description: 'every-instance: each instance runs it; cluster-once: the instance that leads it does' })
  mode: JobMode;
  @ApiProperty({ example: 5, description: 'Seconds from the end of a run to the next (each wait ± its jitter)' }) interval_seconds: number;
  @ApiProperty({ enum: JOB_STATES, description: 'degraded after 3 failed runs in a row; ok again after a run that succeeds' }) state: JobState;
  @ApiProperty({ description: 'Runs on this instance since it started (a cluster-once job led elsewhere does not run here)' }) runs: number;
  @ApiProperty({ description: 'Of them, the runs that failed (threw, or could not tell the lead)' }) failures: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'null: never run here' }) last_started_at: string | null;
  @ApiProperty({ nullable: true, type: Number, example: 1.25 }) last_duration_ms: number | null;
  @ApiProperty({ nullable: true, type: String, description: "The last run's error; null when it succeeded" }) last_error: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'When its timer fires next; null while a run is under way' })
  next_run_at: string | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export const toSystemJobDto = (j: InstanceJobFigures): SystemJobDto => ({
  name: j.name,
  instance: j.instance,
  mode: j.mode,
  interval_seconds: j.intervalSeconds,
  state: j.state,
  runs: j.runs,
  failures: j.failures,
  last_started_at: iso(j.lastStartedAt),
  last_duration_ms: j.lastDurationMs,
  last_error: j.lastError,
  next_run_at: iso(j.nextRunAt),
});
