import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Re-enrollment needs the agent's current secret (issue #30, point 1, finding N1): the hardware id proves nothing
 * any more. An operator may instead allow the next registration of the agent's hostname to take the agent over:
 * `reenroll_allowed_until` (null: not allowed), set by `POST /api/v3/agents/{id}/reenroll/`, cleared by the
 * re-enrollment that uses it. Keep to SQL that PostgreSQL 15 accepts.
 */
export class ReenrollAllowance1764831000000 implements MigrationInterface {
  name = 'ReenrollAllowance1764831000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" ADD "reenroll_allowed_until" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "reenroll_allowed_until"`);
  }
}
