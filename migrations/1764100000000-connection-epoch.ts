import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * agents.connection_epoch: the generation of the agent's current channel connection, incremented at each connect.
 * Every write of status and last_seen by a connection names the epoch it was given, so a stale close or a stale
 * heartbeat flush of an older connection (on this instance or another) changes nothing (docs/decisions.md, "Who
 * owns each state"). Existing rows start at 0; the next connect makes them 1. Keep to SQL that PostgreSQL 15
 * accepts (ADD COLUMN with a constant default rewrites nothing since PostgreSQL 11).
 */
export class ConnectionEpoch1764100000000 implements MigrationInterface {
  name = 'ConnectionEpoch1764100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" ADD "connection_epoch" bigint NOT NULL DEFAULT '0'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "connection_epoch"`);
  }
}
