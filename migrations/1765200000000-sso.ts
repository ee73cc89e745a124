import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Company sign-in (docs/sso.md): operators linked to an OpenID provider account (issuer + sub, unique), break-glass
 * operators and operators without a password; passkeys; sign-ins and ceremonies in flight (`auth_challenges`); and
 * per session when it was last authenticated (step-up), how, from where. Keep to SQL that PostgreSQL 15 accepts.
 */
export class Sso1765200000000 implements MigrationInterface {
  name = 'Sso1765200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "operator_passkeys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "operator_id" integer NOT NULL, "credential_id" text NOT NULL, "public_key" bytea NOT NULL, "counter" bigint NOT NULL DEFAULT '0', "transports" text array NOT NULL DEFAULT '{}', "device_type" text, "backed_up" boolean NOT NULL DEFAULT false, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_4ab83c581c5f5a5638223086dc5" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_operator_passkeys_operator" ON "operator_passkeys"("operator_id")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_operator_passkeys_credential" ON "operator_passkeys"("credential_id")`);
    await queryRunner.query(`CREATE TABLE "auth_challenges" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "purpose" text NOT NULL, "operator_id" integer, "session_id" uuid, "payload" jsonb NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6993bc9c45bbf5948e4118de560" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_auth_challenges_expires" ON "auth_challenges"("expires_at")`);
    await queryRunner.query(`ALTER TABLE "operators" ADD "break_glass" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "operators" ADD "oidc_issuer" text`);
    await queryRunner.query(`ALTER TABLE "operators" ADD "oidc_subject" text`);
    await queryRunner.query(`ALTER TABLE "operators" ADD "oidc_link_allowed" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" ADD "authenticated_at" TIMESTAMP WITH TIME ZONE`);
    // Sessions signed in before this migration: authenticated when they began, by password.
    await queryRunner.query(`UPDATE "operator_sessions" SET "authenticated_at" = "created_at"`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" ALTER COLUMN "authenticated_at" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" ADD "method" text NOT NULL DEFAULT 'password'`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" ALTER COLUMN "method" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" ADD "address" text`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" ADD "user_agent" text`);
    await queryRunner.query(`ALTER TABLE "operators" ALTER COLUMN "password_hash" DROP NOT NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_operators_oidc" ON "operators"("oidc_issuer", "oidc_subject") WHERE "oidc_subject" IS NOT NULL`);
    await queryRunner.query(`ALTER TABLE "operator_passkeys" ADD CONSTRAINT "FK_960ef43911874d7cea28624aecd" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "operator_passkeys" DROP CONSTRAINT "FK_960ef43911874d7cea28624aecd"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_operators_oidc"`);
    // Operators without a password (provider or passkey only) cannot exist before this migration.
    await queryRunner.query(`DELETE FROM "operators" WHERE "password_hash" IS NULL`);
    await queryRunner.query(`ALTER TABLE "operators" ALTER COLUMN "password_hash" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" DROP COLUMN "user_agent"`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" DROP COLUMN "address"`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" DROP COLUMN "method"`);
    await queryRunner.query(`ALTER TABLE "operator_sessions" DROP COLUMN "authenticated_at"`);
    await queryRunner.query(`ALTER TABLE "operators" DROP COLUMN "oidc_link_allowed"`);
    await queryRunner.query(`ALTER TABLE "operators" DROP COLUMN "oidc_subject"`);
    await queryRunner.query(`ALTER TABLE "operators" DROP COLUMN "oidc_issuer"`);
    await queryRunner.query(`ALTER TABLE "operators" DROP COLUMN "break_glass"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_auth_challenges_expires"`);
    await queryRunner.query(`DROP TABLE "auth_challenges"`);
    await queryRunner.query(`DROP INDEX "public"."UQ_operator_passkeys_credential"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_operator_passkeys_operator"`);
    await queryRunner.query(`DROP TABLE "operator_passkeys"`);
  }
}
