import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * script_runs.error and task_runs.error: why a run did not finish as the script ended it (the agent refused it,
 * answered something that is not an answer, went away, did not answer in time), for the operator to read.
 * Null for a run that finished. Keep to SQL that PostgreSQL 15 accepts.
 */
export class RunErrors1764000500000 implements MigrationInterface {
  name = 'RunErrors1764000500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "script_runs" ADD "error" text`);
    await queryRunner.query(`ALTER TABLE "task_runs" ADD "error" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "task_runs" DROP COLUMN "error"`);
    await queryRunner.query(`ALTER TABLE "script_runs" DROP COLUMN "error"`);
  }
}
