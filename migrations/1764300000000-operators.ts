import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's people and their sessions (docs/console.md): `operators` (role admin | technician | viewer, an
 * optional list of clients, optional TOTP), `operator_sessions` (the cookie's secret stored as a SHA-256), and
 * `api_keys.clients` (a key limited to some clients; null = every client, as every existing key). The audit log
 * names operators (actor_kind 'operator'). Keep to SQL that PostgreSQL 15 accepts.
 */
export class Operators1764300000000 implements MigrationInterface {
  name = 'Operators1764300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "operators" ("id" SERIAL NOT NULL, "email" text NOT NULL, "password_hash" text NOT NULL, "role" text NOT NULL, "clients" integer array, "totp_secret" text, "recovery_codes" text array NOT NULL DEFAULT '{}', "totp_last_step" bigint, "disabled" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_operators_role" CHECK ("role" IN ('admin', 'technician', 'viewer')), CONSTRAINT "PK_3d02b3692836893720335a79d1b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_operators_email" ON "operators" ("email")`);
    await queryRunner.query(`CREATE TABLE "operator_sessions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "token_hash" text NOT NULL, "operator_id" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_seen_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_73b13bd07c5666193c04d434505" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_operator_sessions_token_hash" ON "operator_sessions" ("token_hash")`);
    await queryRunner.query(`CREATE INDEX "IDX_operator_sessions_operator" ON "operator_sessions" ("operator_id")`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" ADD CONSTRAINT "FK_a1f1a9bd7a2f93c3f602b8d9202" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "clients" integer array`);
    await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "CHK_audit_log_actor_kind"`);
    await queryRunner.query(`ALTER TABLE "audit_log" ADD CONSTRAINT "CHK_audit_log_actor_kind" CHECK ("actor_kind" IN ('api_key', 'service_role', 'user', 'cli', 'anonymous', 'operator'))`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "audit_log" WHERE "actor_kind" = 'operator'`);
    await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "CHK_audit_log_actor_kind"`);
    await queryRunner.query(`ALTER TABLE "audit_log" ADD CONSTRAINT "CHK_audit_log_actor_kind" CHECK ("actor_kind" IN ('api_key', 'service_role', 'user', 'cli', 'anonymous'))`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "clients"`);
    await queryRunner.query(`DROP TABLE "operator_sessions"`);
    await queryRunner.query(`DROP TABLE "operators"`);
  }
}
