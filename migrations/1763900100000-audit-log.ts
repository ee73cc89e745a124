import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (one row per mutating call: /api/v3, /auth/v1/admin, operator CLI commands), and
 * enrollment_log rows that outlive their user:
 * - audit_log: no foreign keys (a row outlives the key, user or client it names); newest-first reads use
 *   IDX_audit_log_at, "what did this key do" reads IDX_audit_log_actor (both DESC on time). No grants to the
 *   data platform's roles: /rest/v1 does not expose it and anon/authenticated/service_role cannot read it.
 * - enrollment_log.user_id loses its ON DELETE CASCADE foreign key, so deleting a user keeps their enrollment
 *   rows. A trigger still refuses a row (insert, or update of user_id) naming no existing user, with the
 *   foreign-key SQLSTATE (23503), and takes the same KEY SHARE lock a foreign key takes, so a row cannot be
 *   written for a user being deleted at that moment. The RLS policy (user_id = auth.uid()) is unchanged.
 * Keep to SQL that PostgreSQL 15 accepts.
 */
export class AuditLog1763900100000 implements MigrationInterface {
  name = 'AuditLog1763900100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "audit_log" ("id" BIGSERIAL NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "actor_kind" text NOT NULL, "actor_id" text, "actor_name" text, "method" text, "action" text NOT NULL, "target" text NOT NULL, "client_address" text, "status" integer, "outcome" text NOT NULL, "request_id" text, CONSTRAINT "CHK_audit_log_actor_kind" CHECK ("actor_kind" IN ('api_key', 'service_role', 'user', 'cli', 'anonymous')), CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_at" ON "audit_log" ("at" DESC)`);
    await queryRunner.query(`CREATE INDEX "IDX_audit_log_actor" ON "audit_log" ("actor_kind", "actor_id", "at" DESC)`);

    await queryRunner.query(`ALTER TABLE "enrollment_log" DROP CONSTRAINT "FK_d2ae4431cf72a7fe16ded3d741a"`);
    // SECURITY DEFINER: the service role inserts through /rest/v1 and has no grant on auth.users.
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION public.enrollment_log_user_exists() RETURNS trigger
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
      BEGIN
        -- A missing user_id is the NOT NULL constraint's to refuse (23502), after this trigger.
        IF NEW.user_id IS NULL THEN
          RETURN NEW;
        END IF;
        PERFORM 1 FROM auth.users WHERE id = NEW.user_id FOR KEY SHARE;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'insert or update on table "enrollment_log" violates the user check'
            USING ERRCODE = 'foreign_key_violation', DETAIL = format('Key (user_id)=(%s) is not present in table "users".', NEW.user_id);
        END IF;
        RETURN NEW;
      END
      $$`);
    await queryRunner.query(`REVOKE ALL ON FUNCTION public.enrollment_log_user_exists() FROM PUBLIC`);
    await queryRunner.query(`CREATE TRIGGER "enrollment_log_user_exists" BEFORE INSERT OR UPDATE OF "user_id" ON "enrollment_log" FOR EACH ROW EXECUTE FUNCTION public.enrollment_log_user_exists()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER IF EXISTS "enrollment_log_user_exists" ON "enrollment_log"`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS public.enrollment_log_user_exists()`);
    // NOT VALID: rows of users deleted meanwhile are kept (an audit trail is not destroyed by a rollback);
    // new rows are checked and deletes cascade again, as before.
    await queryRunner.query(`ALTER TABLE "enrollment_log" ADD CONSTRAINT "FK_d2ae4431cf72a7fe16ded3d741a" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE CASCADE ON UPDATE NO ACTION NOT VALID`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_actor"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_audit_log_at"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
  }
}
