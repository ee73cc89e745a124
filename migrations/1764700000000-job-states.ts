import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The periodic-job registry's shared figures (issue 28): one row per job and instance, written by each instance for
 * its own jobs in one statement every few seconds, read by GET /api/v3/system/jobs/. Keep to SQL that PostgreSQL 15
 * accepts.
 */
export class JobStates1764700000000 implements MigrationInterface {
  name = 'JobStates1764700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "job_states" ("instance" uuid NOT NULL, "name" text NOT NULL, "mode" text NOT NULL, "interval_seconds" double precision NOT NULL, "state" text NOT NULL, "runs" bigint NOT NULL, "failures" bigint NOT NULL, "last_started_at" TIMESTAMP WITH TIME ZONE, "last_duration_ms" double precision, "last_error" text, "next_run_at" TIMESTAMP WITH TIME ZONE, "reported_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_job_states_mode" CHECK ("mode" IN ('every-instance', 'cluster-once')), CONSTRAINT "CHK_job_states_state" CHECK ("state" IN ('ok', 'degraded')), CONSTRAINT "PK_job_states" PRIMARY KEY ("instance", "name"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "job_states"`);
  }
}
