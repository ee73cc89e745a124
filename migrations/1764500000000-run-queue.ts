import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The offline command queue (issue 23): script runs may wait for an offline agent (status `queued`, with the
 * script's body as it was when queued and an `expires_at`), and end `cancelled` or `expired` without being sent;
 * IDX_script_runs_open finds an agent's open runs (the queue's head, and whether one of them is running) without
 * reading its history. Tasks get `queue_if_offline`, and a task run waits as `queued` while its script run does.
 * Keep to SQL that PostgreSQL 15 accepts.
 */
export class RunQueue1764500000000 implements MigrationInterface {
  name = 'RunQueue1764500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "script_runs" ADD "body" text`);
    await queryRunner.query(`ALTER TABLE "script_runs" ADD "expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "script_runs" DROP CONSTRAINT "CHK_script_runs_status"`);
    await queryRunner.query(
      `ALTER TABLE "script_runs" ADD CONSTRAINT "CHK_script_runs_status" CHECK ("status" IN ('queued', 'running', 'finished', 'failed', 'timed_out', 'interrupted', 'cancelled', 'expired'))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_script_runs_open" ON "script_runs" ("agent_id", "id") WHERE "status" IN ('queued', 'running')`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD "queue_if_offline" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "task_runs" DROP CONSTRAINT "CHK_task_runs_status"`);
    await queryRunner.query(
      `ALTER TABLE "task_runs" ADD CONSTRAINT "CHK_task_runs_status" CHECK ("status" IN ('running', 'succeeded', 'failed', 'timed_out', 'agent_offline', 'interrupted', 'queued'))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_task_runs_queued" ON "task_runs" ("script_run_id") WHERE "status" = 'queued'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_task_runs_queued"`);
    // (a run in a status the older schema does not know is closed as the older code would have closed it)
    await queryRunner.query(`UPDATE "task_runs" SET "status" = 'agent_offline', "finished_at" = now() WHERE "status" = 'queued'`);
    await queryRunner.query(`ALTER TABLE "task_runs" DROP CONSTRAINT "CHK_task_runs_status"`);
    await queryRunner.query(
      `ALTER TABLE "task_runs" ADD CONSTRAINT "CHK_task_runs_status" CHECK ("status" IN ('running', 'succeeded', 'failed', 'timed_out', 'agent_offline', 'interrupted'))`,
    );
    await queryRunner.query(`ALTER TABLE "tasks" DROP COLUMN "queue_if_offline"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_script_runs_open"`);
    await queryRunner.query(`UPDATE "script_runs" SET "status" = 'interrupted', "finished_at" = COALESCE("finished_at", now()) WHERE "status" IN ('queued', 'cancelled', 'expired')`);
    await queryRunner.query(`ALTER TABLE "script_runs" DROP CONSTRAINT "CHK_script_runs_status"`);
    await queryRunner.query(
      `ALTER TABLE "script_runs" ADD CONSTRAINT "CHK_script_runs_status" CHECK ("status" IN ('queued', 'running', 'finished', 'failed', 'timed_out', 'interrupted'))`,
    );
    await queryRunner.query(`ALTER TABLE "script_runs" DROP COLUMN "expires_at"`);
    await queryRunner.query(`ALTER TABLE "script_runs" DROP COLUMN "body"`);
  }
}
