import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Agent self-update (issue 22): clients.agent_update (`auto` | `off`, default auto: every existing client's agents
 * are updated, staged) and agent_updates, one row per agent for its latest update (docs/agent-binaries.md).
 * Keep to SQL that PostgreSQL 15 accepts.
 */
export class AgentUpdates1764400000000 implements MigrationInterface {
  name = 'AgentUpdates1764400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "agent_updates" ("agent_id" integer NOT NULL, "from_version" text NOT NULL, "to_version" text NOT NULL, "target" text NOT NULL, "status" text NOT NULL, "error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_agent_updates_status" CHECK ("status" IN ('pending', 'running', 'done', 'failed')), CONSTRAINT "PK_f64607d60ff6867ec2e65a1b278" PRIMARY KEY ("agent_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_agent_updates_status" ON "agent_updates"  ("status") `);
    await queryRunner.query(`ALTER TABLE "clients" ADD "agent_update" text NOT NULL DEFAULT 'auto'`);
    await queryRunner.query(`ALTER TABLE "clients" ADD CONSTRAINT "CHK_clients_agent_update" CHECK ("agent_update" IN ('auto', 'off'))`);
    await queryRunner.query(`ALTER TABLE "agent_updates" ADD CONSTRAINT "FK_f64607d60ff6867ec2e65a1b278" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agent_updates" DROP CONSTRAINT "FK_f64607d60ff6867ec2e65a1b278"`);
    await queryRunner.query(`ALTER TABLE "clients" DROP CONSTRAINT "CHK_clients_agent_update"`);
    await queryRunner.query(`ALTER TABLE "clients" DROP COLUMN "agent_update"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agent_updates_status"`);
    await queryRunner.query(`DROP TABLE "agent_updates"`);
  }
}
