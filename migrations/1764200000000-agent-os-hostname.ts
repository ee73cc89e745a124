import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * agents.os_hostname: the name the device gives itself (the `hostname` it sent at registration, kept current by
 * heartbeat facts). `hostname` stays the agent's name in its client: the one the enrollment function was asked
 * for when the device registered through a deployment the function made, else the same as os_hostname
 * (docs/decisions.md, "Requested hostname and the machine's name"). Every existing agent registered under the
 * name its device sent, so os_hostname starts as its hostname. Keep to SQL that PostgreSQL 15 accepts.
 */
export class AgentOsHostname1764200000000 implements MigrationInterface {
  name = 'AgentOsHostname1764200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" ADD "os_hostname" text`);
    await queryRunner.query(`UPDATE "agents" SET "os_hostname" = "hostname"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "os_hostname"`);
  }
}
