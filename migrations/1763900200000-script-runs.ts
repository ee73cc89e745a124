import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * script_runs: every runscript (agent, script, args, which key asked, status, retcode, capped stdout/stderr,
 * timed_out, times). Newest-first reads per agent use IDX_script_runs_agent. A run goes with its agent
 * (ON DELETE CASCADE) but outlives its script (no foreign key; name and shell are copied).
 * Keep to SQL that PostgreSQL 15 accepts.
 */
export class ScriptRuns1763900200000 implements MigrationInterface {
  name = 'ScriptRuns1763900200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "script_runs" ("id" SERIAL NOT NULL, "agent_id" integer NOT NULL, "script_id" integer, "script_name" text NOT NULL, "shell" text NOT NULL, "args" jsonb NOT NULL DEFAULT '[]', "output" text NOT NULL, "timeout_seconds" integer NOT NULL, "requested_by_key_id" integer, "status" text NOT NULL DEFAULT 'queued', "retcode" integer, "stdout" text NOT NULL DEFAULT '', "stderr" text NOT NULL DEFAULT '', "stdout_truncated" boolean NOT NULL DEFAULT false, "stderr_truncated" boolean NOT NULL DEFAULT false, "timed_out" boolean NOT NULL DEFAULT false, "execution_time" double precision, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_script_runs_status" CHECK ("status" IN ('queued', 'running', 'finished', 'failed', 'timed_out', 'interrupted')), CONSTRAINT "CHK_script_runs_output" CHECK ("output" IN ('wait', 'forget', 'collector')), CONSTRAINT "PK_fd691ba9984fe891bcee039d2cb" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_script_runs_agent" ON "script_runs"  ("agent_id", "id") `);
    await queryRunner.query(`ALTER TABLE "script_runs" ADD CONSTRAINT "FK_fb835ecbe469b79a073ee66c7d6" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "script_runs" DROP CONSTRAINT "FK_fb835ecbe469b79a073ee66c7d6"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_script_runs_agent"`);
    await queryRunner.query(`DROP TABLE "script_runs"`);
  }
}
