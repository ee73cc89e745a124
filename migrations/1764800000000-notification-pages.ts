import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pages a channel was sent and is owed the recovery of (issue 29, point 4; docs/notifications.md, "A recovery
 * follows its page"): one row per (channel, agent) written with an agent.offline delivery, deleted by the statement
 * that writes the agent's agent.online, which goes to each such channel whatever its min_severity. Keep to SQL that
 * PostgreSQL 15 accepts.
 */
export class NotificationPages1764800000000 implements MigrationInterface {
  name = 'NotificationPages1764800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "notification_pages" ("channel_id" integer NOT NULL, "agent_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_notification_pages" PRIMARY KEY ("channel_id", "agent_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_notification_pages_agent" ON "notification_pages"  ("agent_id") `);
    await queryRunner.query(
      `ALTER TABLE "notification_pages" ADD CONSTRAINT "FK_notification_pages_channel" FOREIGN KEY ("channel_id") REFERENCES "notification_channels"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "notification_pages" ADD CONSTRAINT "FK_notification_pages_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_pages" DROP CONSTRAINT "FK_notification_pages_agent"`);
    await queryRunner.query(`ALTER TABLE "notification_pages" DROP CONSTRAINT "FK_notification_pages_channel"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notification_pages_agent"`);
    await queryRunner.query(`DROP TABLE "notification_pages"`);
  }
}
