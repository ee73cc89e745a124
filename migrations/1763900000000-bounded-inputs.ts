import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bounds on what callers can store (docs/decisions.md, "Limits"):
 * - enrollment_log: hostname at most 255 characters, platform 32, deployment_uuid 64. Long values made
 *   /rest/v1 like-filters burn seconds of CPU that no statement_timeout interrupts, and an 8 KB
 *   deployment_uuid did not fit in its index ("index row too large", a 500).
 * - deployments.install_flags: at most 1000 characters (the API's limit) and no control characters
 *   (U+0001-U+001F, U+007F; text cannot hold U+0000), which could add lines to the installer.
 * Rows written before these limits are cut to fit (control characters become spaces) so the constraints
 * can be added on an existing database. Keep to SQL that PostgreSQL 15 accepts.
 */
export class BoundedInputs1763900000000 implements MigrationInterface {
  name = 'BoundedInputs1763900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "enrollment_log" SET "hostname" = left("hostname", 255) WHERE char_length("hostname") > 255`);
    await queryRunner.query(`UPDATE "enrollment_log" SET "platform" = left("platform", 32) WHERE char_length("platform") > 32`);
    await queryRunner.query(`UPDATE "enrollment_log" SET "deployment_uuid" = left("deployment_uuid", 64) WHERE char_length("deployment_uuid") > 64`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" ADD CONSTRAINT "CHK_enrollment_log_hostname_length" CHECK (char_length("hostname") <= 255)`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" ADD CONSTRAINT "CHK_enrollment_log_platform_length" CHECK (char_length("platform") <= 32)`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" ADD CONSTRAINT "CHK_enrollment_log_deployment_uuid_length" CHECK (char_length("deployment_uuid") <= 64)`);

    await queryRunner.query(
      `UPDATE "deployments" SET "install_flags" = left(regexp_replace("install_flags", '[\\x01-\\x1f\\x7f]', ' ', 'g'), 1000) ` +
        `WHERE char_length("install_flags") > 1000 OR "install_flags" ~ '[\\x01-\\x1f\\x7f]'`,
    );
    await queryRunner.query(
      `ALTER TABLE "deployments" ADD CONSTRAINT "CHK_deployments_install_flags" CHECK (char_length("install_flags") <= 1000 AND "install_flags" !~ '[\\x01-\\x1f\\x7f]')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "deployments" DROP CONSTRAINT IF EXISTS "CHK_deployments_install_flags"`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" DROP CONSTRAINT IF EXISTS "CHK_enrollment_log_deployment_uuid_length"`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" DROP CONSTRAINT IF EXISTS "CHK_enrollment_log_platform_length"`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" DROP CONSTRAINT IF EXISTS "CHK_enrollment_log_hostname_length"`);
  }
}
