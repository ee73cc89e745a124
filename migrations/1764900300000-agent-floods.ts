import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What one agent can cost is bounded (issue #30, point 2, finding N2): alert flap histories (alert_flaps) and the
 * alert's `flapping`; per (channel, agent) hourly notification budgets (notification_budgets); the debounce of
 * agent.offline (agents.offline_notify_at, offline_notified); the count of an agent's dropped check results. Keep to
 * SQL that PostgreSQL 15 accepts.
 */
export class AgentFloods1764900300000 implements MigrationInterface {
  name = 'AgentFloods1764900300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "alert_flaps" ("alert_type" text NOT NULL, "subject_id" integer NOT NULL, "agent_id" integer NOT NULL, "opens" TIMESTAMP WITH TIME ZONE array NOT NULL DEFAULT '{}', "flapping_since" TIMESTAMP WITH TIME ZONE, "alert_id" integer, "cleared" boolean NOT NULL DEFAULT false, "changed_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_alert_flaps" PRIMARY KEY ("alert_type", "subject_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_alert_flaps_agent" ON "alert_flaps"  ("agent_id")`);
    await queryRunner.query(`CREATE TABLE "notification_budgets" ("channel_id" integer NOT NULL, "agent_id" integer NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "events" integer NOT NULL DEFAULT '0', "summary_id" uuid NOT NULL, CONSTRAINT "PK_notification_budgets" PRIMARY KEY ("channel_id", "agent_id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_notification_budgets_agent" ON "notification_budgets"  ("agent_id")`);
    await queryRunner.query(`ALTER TABLE "agents" ADD "offline_notify_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "agents" ADD "offline_notified" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "agents" ADD "check_results_dropped" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD "flapping" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`CREATE INDEX "IDX_agents_offline_notify" ON "agents"  ("offline_notify_at") WHERE "offline_notify_at" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "alert_flaps" ADD CONSTRAINT "FK_alert_flaps_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alert_flaps" ADD CONSTRAINT "FK_alert_flaps_alert" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notification_budgets" ADD CONSTRAINT "FK_notification_budgets_channel" FOREIGN KEY ("channel_id") REFERENCES "notification_channels"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "notification_budgets" ADD CONSTRAINT "FK_notification_budgets_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    // Agents offline now were paged under the old rule (at once): their return is still an agent.online.
    await queryRunner.query(`UPDATE "agents" SET "offline_notified" = true WHERE "status" <> 'online'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_budgets" DROP CONSTRAINT "FK_notification_budgets_agent"`);
    await queryRunner.query(`ALTER TABLE "notification_budgets" DROP CONSTRAINT "FK_notification_budgets_channel"`);
    await queryRunner.query(`ALTER TABLE "alert_flaps" DROP CONSTRAINT "FK_alert_flaps_alert"`);
    await queryRunner.query(`ALTER TABLE "alert_flaps" DROP CONSTRAINT "FK_alert_flaps_agent"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_agents_offline_notify"`);
    await queryRunner.query(`ALTER TABLE "alerts" DROP COLUMN "flapping"`);
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "check_results_dropped"`);
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "offline_notified"`);
    await queryRunner.query(`ALTER TABLE "agents" DROP COLUMN "offline_notify_at"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notification_budgets_agent"`);
    await queryRunner.query(`DROP TABLE "notification_budgets"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_alert_flaps_agent"`);
    await queryRunner.query(`DROP TABLE "alert_flaps"`);
  }
}
