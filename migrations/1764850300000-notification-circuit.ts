import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A slow receiver delays only itself (issue 30, point 3; docs/notifications.md, "Fair delivery" and "Circuit
 * breaker"): a channel records since when every attempt has failed, the last failure, and when its circuit opened
 * and may next be probed; two partial indexes let the claim count a channel's leased deliveries and take its oldest
 * due ones without reading the rest of the outbox. Keep to SQL that PostgreSQL 15 accepts.
 */
export class NotificationCircuit1764850300000 implements MigrationInterface {
  name = 'NotificationCircuit1764850300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD "failing_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD "last_failure" text`);
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD "circuit_opened_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "notification_channels" ADD "circuit_probe_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "IDX_notification_deliveries_channel_due" ON "notification_deliveries" ("channel_id", "next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_notification_deliveries_leased" ON "notification_deliveries" ("channel_id", "locked_until") WHERE "status" = 'pending' AND "locked_until" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_notification_deliveries_leased"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_notification_deliveries_channel_due"`);
    await queryRunner.query(`ALTER TABLE "notification_channels" DROP COLUMN "circuit_probe_at"`);
    await queryRunner.query(`ALTER TABLE "notification_channels" DROP COLUMN "circuit_opened_at"`);
    await queryRunner.query(`ALTER TABLE "notification_channels" DROP COLUMN "last_failure"`);
    await queryRunner.query(`ALTER TABLE "notification_channels" DROP COLUMN "failing_since"`);
  }
}
