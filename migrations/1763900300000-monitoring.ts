import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitoring (issue 12): checks get run_interval (5-86400 s, default 120) and severity (of the alert they
 * open); check_results keeps each check's bounded history; task_runs records every firing of a task, one per
 * (task, due time) by UQ_task_runs_due; and the alerts table allows at most one open alert per check, task or
 * overdue agent (partial unique indexes), so concurrent results can never open a second.
 * Keep to SQL that PostgreSQL 15 accepts.
 */
export class Monitoring1763900300000 implements MigrationInterface {
  name = 'Monitoring1763900300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "check_results" ("id" SERIAL NOT NULL, "check_id" integer NOT NULL, "status" text NOT NULL, "more_info" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_check_results_status" CHECK ("status" IN ('passing', 'failing', 'pending')), CONSTRAINT "PK_2af4caf20da46ce834ba71ad38f" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_check_results_check" ON "check_results"  ("check_id", "id") `);
    await queryRunner.query(`CREATE TABLE "task_runs" ("id" SERIAL NOT NULL, "task_id" integer NOT NULL, "agent_id" integer NOT NULL, "script_run_id" integer, "due_at" TIMESTAMP WITH TIME ZONE NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, "status" text NOT NULL DEFAULT 'running', "retcode" integer, "stdout" text NOT NULL DEFAULT '', "stderr" text NOT NULL DEFAULT '', "stdout_truncated" boolean NOT NULL DEFAULT false, "stderr_truncated" boolean NOT NULL DEFAULT false, CONSTRAINT "UQ_task_runs_due" UNIQUE ("task_id", "due_at"), CONSTRAINT "CHK_task_runs_status" CHECK ("status" IN ('running', 'succeeded', 'failed', 'timed_out', 'agent_offline', 'interrupted')), CONSTRAINT "PK_52c37d0e12c4de37ae7bbff7850" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_task_runs_task" ON "task_runs"  ("task_id", "id") `);
    await queryRunner.query(`ALTER TABLE "checks" ADD "run_interval" integer NOT NULL DEFAULT '120'`);
    await queryRunner.query(`ALTER TABLE "checks" ADD "severity" text NOT NULL DEFAULT 'warning'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_alerts_open_overdue" ON "alerts"  ("agent_id") WHERE NOT "resolved" AND "alert_type" = 'agent_overdue'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_alerts_open_task" ON "alerts"  ("task_id") WHERE NOT "resolved" AND "alert_type" = 'task_failure'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_alerts_open_check" ON "alerts"  ("check_id") WHERE NOT "resolved" AND "alert_type" = 'check_failure'`);
    await queryRunner.query(`ALTER TABLE "checks" ADD CONSTRAINT "CHK_checks_severity" CHECK ("severity" IN ('info', 'warning', 'error'))`);
    await queryRunner.query(`ALTER TABLE "checks" ADD CONSTRAINT "CHK_checks_run_interval" CHECK ("run_interval" BETWEEN 5 AND 86400)`);
    await queryRunner.query(`ALTER TABLE "check_results" ADD CONSTRAINT "FK_68313aaf1a49617f56a50188242" FOREIGN KEY ("check_id") REFERENCES "checks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "task_runs" ADD CONSTRAINT "FK_33f9addf6e998af00182fe26336" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "task_runs" DROP CONSTRAINT "FK_33f9addf6e998af00182fe26336"`);
    await queryRunner.query(`ALTER TABLE "check_results" DROP CONSTRAINT "FK_68313aaf1a49617f56a50188242"`);
    await queryRunner.query(`ALTER TABLE "checks" DROP CONSTRAINT "CHK_checks_run_interval"`);
    await queryRunner.query(`ALTER TABLE "checks" DROP CONSTRAINT "CHK_checks_severity"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_alerts_open_check"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_alerts_open_task"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_alerts_open_overdue"`);
    await queryRunner.query(`ALTER TABLE "checks" DROP COLUMN "severity"`);
    await queryRunner.query(`ALTER TABLE "checks" DROP COLUMN "run_interval"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_task_runs_task"`);
    await queryRunner.query(`DROP TABLE "task_runs"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_check_results_check"`);
    await queryRunner.query(`DROP TABLE "check_results"`);
  }
}
