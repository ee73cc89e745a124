import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A check can be disabled (issue #29, point 3: the console's Enable / Disable): a disabled check stays with its
 * settings and history but is not in the list its agent runs. Keep to SQL that PostgreSQL 15 accepts.
 */
export class CheckEnabled1764812900000 implements MigrationInterface {
  name = 'CheckEnabled1764812900000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "checks" ADD "enabled" boolean NOT NULL DEFAULT true`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "checks" DROP COLUMN "enabled"`);
  }
}
