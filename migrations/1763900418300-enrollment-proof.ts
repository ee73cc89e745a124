import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Re-enrollment proves the device (issue 18): agents keep the hash of the hardware id their device sent at
 * registration (hardware_hash); a deployment may carry max_registrations (null: any number; 1: a one-time
 * link) and counts its successful registrations; a refused re-enrollment opens an `enrollment_conflict` alert,
 * at most one open per agent (UQ_alerts_open_enrollment_conflict).
 * Keep to SQL that PostgreSQL 15 accepts.
 */
export class EnrollmentProof1763900418300 implements MigrationInterface {
  name = 'EnrollmentProof1763900418300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" ADD "hardware_hash" text`);
    await queryRunner.query(`ALTER TABLE "deployments" ADD "max_registrations" integer`);
    await queryRunner.query(`ALTER TABLE "deployments" ADD "registrations" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "deployments" ADD CONSTRAINT "CHK_deployments_max_registrations" CHECK ("max_registrations" > 0)`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP CONSTRAINT "CHK_alerts_alert_type"`);
    await queryRunner.query(
      `ALTER TABLE "alerts" ADD CONSTRAINT "CHK_alerts_alert_type" CHECK ("alert_type" IN ('check_failure', 'task_failure', 'agent_overdue', 'enrollment_conflict'))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "UQ_alerts_open_enrollment_conflict" ON "alerts"  ("agent_id") WHERE NOT "resolved" AND "alert_type" = 'enrollment_conflict'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."UQ_alerts_open_enrollment_conflict"`);
    await queryRunner.query(`DELETE FROM "alerts" WHERE "alert_type" = 'enrollment_conflict'`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP CONSTRAINT "CHK_alerts_alert_type"`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD CONSTRAINT "CHK_alerts_alert_type" CHECK ("alert_type" IN ('check_failure', 'task_failure', 'agent_overdue'))`);
    await queryRunner.query(`ALTER TABLE "deployments" DROP CONSTRAINT "CHK_deployments_max_registrations"`);
    await queryRunner.query(`ALTER TABLE "deployments" DROP COLUMN "registrations"`);
    await queryRunner.query(`ALTER TABLE "deployments" DROP COLUMN "max_registrations"`);
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "hardware_hash"`);
  }
}
