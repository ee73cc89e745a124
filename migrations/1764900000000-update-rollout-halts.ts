import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30 (N3, U2, point 9): a pending update may wait until `not_before` (an offer released unanswered, or whose
 * agent went away, is retried later); a version's rollout halts after too many failures (`agent_update_halts`, one
 * row per version, with its `agent_update_halted` alert); a build that fails before an offer opens
 * `agent_build_failed` (at most one open per agent). Keep to SQL that PostgreSQL 15 accepts.
 */
export class UpdateRolloutHalts1764900000000 implements MigrationInterface {
  name = 'UpdateRolloutHalts1764900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_updates" ADD "not_before" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP CONSTRAINT "CHK_alerts_alert_type"`);
    await queryRunner.query(
      `ALTER TABLE "alerts" ADD CONSTRAINT "CHK_alerts_alert_type" CHECK ("alert_type" IN ('check_failure', 'task_failure', 'agent_overdue', 'enrollment_conflict', 'agent_update_halted', 'agent_build_failed'))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_alerts_open_agent_build_failed" ON "alerts"  ("agent_id") WHERE NOT "resolved" AND "alert_type" = 'agent_build_failed'`);
    await queryRunner.query(
      `CREATE TABLE "agent_update_halts" ("version" text NOT NULL, "halted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "reason" text NOT NULL, "alert_id" integer, "resumed_at" TIMESTAMP WITH TIME ZONE, "resumed_by" text, CONSTRAINT "PK_agent_update_halts" PRIMARY KEY ("version"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "agent_update_halts" ADD CONSTRAINT "FK_868ce820f55f7880f397c7d421b" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "agent_update_halts"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_alerts_open_agent_build_failed"`);
    await queryRunner.query(`DELETE FROM "alerts" WHERE "alert_type" IN ('agent_update_halted', 'agent_build_failed')`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP CONSTRAINT "CHK_alerts_alert_type"`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD CONSTRAINT "CHK_alerts_alert_type" CHECK ("alert_type" IN ('check_failure', 'task_failure', 'agent_overdue', 'enrollment_conflict'))`);
    await queryRunner.query(`ALTER TABLE "agent_updates" DROP COLUMN "not_before"`);
  }
}
