import { MigrationInterface, QueryRunner } from 'typeorm';

const SCOPES_BEFORE = `'admin', 'agents:read', 'agents:write', 'deployments:read', 'deployments:write', 'clients:read', 'clients:write', 'scripts:read', 'scripts:write', 'scripts:run', 'checks:read', 'checks:write', 'tasks:read', 'tasks:write', 'alerts:read', 'alerts:write'`;

/**
 * Notification channels and their outbox (issue 23, docs/notifications.md): notification_channels, and
 * notification_deliveries, one row per (channel, event occurrence) written in the transaction of its cause; the
 * API key scopes notifications:read and notifications:write. Keep to SQL that PostgreSQL 15 accepts
 * (gen_random_uuid() is built in since 13).
 */
export class Notifications1764600000000 implements MigrationInterface {
  name = 'Notifications1764600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "notification_channels" ("id" SERIAL NOT NULL, "name" text NOT NULL, "type" text NOT NULL, "url" text, "recipients" text array NOT NULL DEFAULT '{}', "secret" text, "headers" jsonb NOT NULL DEFAULT '{}', "min_severity" text NOT NULL, "events" text array NOT NULL, "clients" integer array NOT NULL DEFAULT '{}', "enabled" boolean NOT NULL DEFAULT true, "disabled_reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_notification_channels_target" CHECK (("type" = 'email') = ("url" IS NULL) AND ("type" = 'email') = (cardinality("recipients") > 0)), CONSTRAINT "CHK_notification_channels_events" CHECK ("events" <@ ARRAY['alert.created', 'alert.resolved', 'alert.acknowledged', 'agent.offline', 'agent.overdue', 'agent.online', 'task.run', 'enrollment.completed']::text[] AND cardinality("events") > 0), CONSTRAINT "CHK_notification_channels_min_severity" CHECK ("min_severity" IN ('info', 'warning', 'error')), CONSTRAINT "CHK_notification_channels_type" CHECK ("type" IN ('webhook', 'email', 'slack', 'teams')), CONSTRAINT "PK_3bc0cb5b60e8659f5fc859b2af0" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "notification_deliveries" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "channel_id" integer NOT NULL, "event" text NOT NULL, "severity" text NOT NULL, "payload" jsonb NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "last_status_code" integer, "last_error" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_until" TIMESTAMP WITH TIME ZONE, "first_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_notification_deliveries_severity" CHECK ("severity" IN ('info', 'warning', 'error')), CONSTRAINT "CHK_notification_deliveries_status" CHECK ("status" IN ('pending', 'delivered', 'failed')), CONSTRAINT "PK_81daeff81f237bd384f7cfc4a4c" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_notification_deliveries_channel" ON "notification_deliveries"  ("channel_id", "created_at") `);
    await queryRunner.query(`CREATE INDEX "IDX_notification_deliveries_due" ON "notification_deliveries"  ("next_attempt_at") WHERE "status" = 'pending'`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" ADD CONSTRAINT "FK_cb8fc3f1c2debe694670bc9d655" FOREIGN KEY ("channel_id") REFERENCES "notification_channels"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "CHK_api_keys_scopes"`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "CHK_api_keys_scopes" CHECK ("scopes" <@ ARRAY[${SCOPES_BEFORE}, 'notifications:read', 'notifications:write']::text[] AND cardinality("scopes") > 0)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE "api_keys" SET "scopes" = array_remove(array_remove("scopes", 'notifications:read'), 'notifications:write')`);
    await queryRunner.query(`DELETE FROM "api_keys" WHERE cardinality("scopes") = 0`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "CHK_api_keys_scopes"`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "CHK_api_keys_scopes" CHECK ("scopes" <@ ARRAY[${SCOPES_BEFORE}]::text[] AND cardinality("scopes") > 0)`);
    await queryRunner.query(`ALTER TABLE "notification_deliveries" DROP CONSTRAINT "FK_cb8fc3f1c2debe694670bc9d655"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notification_deliveries_due"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notification_deliveries_channel"`);
    await queryRunner.query(`DROP TABLE "notification_deliveries"`);
    await queryRunner.query(`DROP TABLE "notification_channels"`);
  }
}
