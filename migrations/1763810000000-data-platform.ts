import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The data platform's access control, done by PostgreSQL itself as PostgREST does it:
 * - auth.sessions and auth.refresh_tokens (GoTrue's), and the user columns GoTrue reports;
 * - the roles anon, authenticated and service_role (BYPASSRLS), created once per cluster and granted to the
 *   server's own database user so it can `SET LOCAL ROLE` to them per request;
 * - auth.uid() / auth.role() / auth.jwt(), read from the transaction's `request.jwt.claims`;
 * - grants and row-level security: enrollment_log is readable by its own user only and written by the
 *   service role only; a user reads their own user_profiles row and may update only its rmm_agent_id column.
 * Roles are shared by every database of the cluster, so `down` leaves them (it only drops this database's grants).
 * Keep to SQL that PostgreSQL 15 accepts.
 */
export class DataPlatform1763810000000 implements MigrationInterface {
  name = 'DataPlatform1763810000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "auth"."sessions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3238ef96f18b355b671619111bc" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_auth_sessions_user" ON "auth"."sessions" ("user_id")`);
    await queryRunner.query(`CREATE TABLE "auth"."refresh_tokens" ("id" BIGSERIAL NOT NULL, "token_hash" text NOT NULL, "session_id" uuid NOT NULL, "revoked" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7d8bee0204106019488c4c50ffa" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_auth_refresh_tokens_token_hash" ON "auth"."refresh_tokens" ("token_hash")`);
    await queryRunner.query(`CREATE INDEX "IDX_auth_refresh_tokens_session" ON "auth"."refresh_tokens" ("session_id")`);
    await queryRunner.query(`ALTER TABLE "auth"."users" ADD "email_confirmed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "auth"."users" ADD "last_sign_in_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "auth"."users" ADD "raw_user_meta_data" jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "auth"."sessions" ADD CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "auth"."refresh_tokens" ADD CONSTRAINT "FK_3bf308fa93da3966f9e76fcfba4" FOREIGN KEY ("session_id") REFERENCES "auth"."sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);

    // Roles: cluster-wide, so created only where missing. Another database of the same cluster may be
    // migrating at the same moment (advisory locks are per database): a lost race is not an error, and
    // the final check below proves the result.
    await queryRunner.query(`
      DO $$
      DECLARE r text;
      BEGIN
        FOREACH r IN ARRAY ARRAY['anon', 'authenticated', 'service_role'] LOOP
          IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
            BEGIN
              IF r = 'service_role' THEN
                EXECUTE format('CREATE ROLE %I NOLOGIN NOINHERIT BYPASSRLS', r);
              ELSE
                EXECUTE format('CREATE ROLE %I NOLOGIN NOINHERIT', r);
              END IF;
            EXCEPTION
              WHEN duplicate_object OR unique_violation THEN NULL;
              WHEN insufficient_privilege THEN
                RAISE EXCEPTION 'cannot create role %: create the roles anon, authenticated and service_role (BYPASSRLS) as a superuser and grant them to %, then start again', r, current_user;
            END;
          END IF;
          IF NOT pg_has_role(current_user, r, 'MEMBER') THEN
            BEGIN
              EXECUTE format('GRANT %I TO %I', r, current_user);
            EXCEPTION WHEN OTHERS THEN
              IF NOT pg_has_role(current_user, r, 'MEMBER') THEN RAISE; END IF;
            END;
          END IF;
        END LOOP;
      END
      $$`);

    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION auth.jwt() RETURNS jsonb LANGUAGE sql STABLE AS $$
        SELECT coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql STABLE AS $$
        SELECT nullif(auth.jwt() ->> 'sub', '')::uuid
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION auth.role() RETURNS text LANGUAGE sql STABLE AS $$
        SELECT nullif(auth.jwt() ->> 'role', '')
      $$`);

    await queryRunner.query(`GRANT USAGE ON SCHEMA public, auth TO anon, authenticated, service_role`);
    await queryRunner.query(`GRANT EXECUTE ON FUNCTION auth.jwt(), auth.uid(), auth.role() TO anon, authenticated, service_role`);

    await queryRunner.query(`GRANT SELECT ON "user_profiles" TO authenticated`);
    await queryRunner.query(`GRANT UPDATE ("rmm_agent_id") ON "user_profiles" TO authenticated`);
    await queryRunner.query(`GRANT SELECT ON "enrollment_log" TO authenticated`);
    await queryRunner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON "user_profiles", "enrollment_log" TO service_role`);
    await queryRunner.query(`GRANT USAGE, SELECT ON SEQUENCE "enrollment_log_id_seq" TO service_role`);

    await queryRunner.query(`ALTER TABLE "user_profiles" ENABLE ROW LEVEL SECURITY`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" ENABLE ROW LEVEL SECURITY`);
    await queryRunner.query(`CREATE POLICY "enrollment_log_select_own" ON "enrollment_log" FOR SELECT TO authenticated USING ("user_id" = auth.uid())`);
    await queryRunner.query(`CREATE POLICY "user_profiles_select_own" ON "user_profiles" FOR SELECT TO authenticated USING ("id" = auth.uid())`);
    // updated_at follows every update, including those made through /rest/v1 (which cannot write it).
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION public.touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN NEW.updated_at = now(); RETURN NEW; END
      $$`);
    await queryRunner.query(`CREATE TRIGGER "user_profiles_touch_updated_at" BEFORE UPDATE ON "user_profiles" FOR EACH ROW EXECUTE FUNCTION public.touch_updated_at()`);
    await queryRunner.query(`CREATE POLICY "user_profiles_update_own" ON "user_profiles" FOR UPDATE TO authenticated USING ("id" = auth.uid()) WITH CHECK ("id" = auth.uid())`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER IF EXISTS "user_profiles_touch_updated_at" ON "user_profiles"`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS public.touch_updated_at()`);
    await queryRunner.query(`DROP POLICY IF EXISTS "user_profiles_update_own" ON "user_profiles"`);
    await queryRunner.query(`DROP POLICY IF EXISTS "user_profiles_select_own" ON "user_profiles"`);
    await queryRunner.query(`DROP POLICY IF EXISTS "enrollment_log_select_own" ON "enrollment_log"`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" DISABLE ROW LEVEL SECURITY`);
    await queryRunner.query(`ALTER TABLE "user_profiles" DISABLE ROW LEVEL SECURITY`);
    await queryRunner.query(`REVOKE ALL ON SEQUENCE "enrollment_log_id_seq" FROM anon, authenticated, service_role`);
    await queryRunner.query(`REVOKE ALL ON "user_profiles", "enrollment_log" FROM anon, authenticated, service_role`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS auth.role()`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS auth.uid()`);
    await queryRunner.query(`DROP FUNCTION IF EXISTS auth.jwt()`);
    await queryRunner.query(`REVOKE ALL ON SCHEMA public, auth FROM anon, authenticated, service_role`);
    await queryRunner.query(`ALTER TABLE "auth"."refresh_tokens" DROP CONSTRAINT "FK_3bf308fa93da3966f9e76fcfba4"`);
    await queryRunner.query(`ALTER TABLE "auth"."sessions" DROP CONSTRAINT "FK_085d540d9f418cfbdc7bd55bb19"`);
    await queryRunner.query(`ALTER TABLE "auth"."users" DROP COLUMN "raw_user_meta_data"`);
    await queryRunner.query(`ALTER TABLE "auth"."users" DROP COLUMN "last_sign_in_at"`);
    await queryRunner.query(`ALTER TABLE "auth"."users" DROP COLUMN "email_confirmed_at"`);
    await queryRunner.query(`DROP TABLE "auth"."refresh_tokens"`);
    await queryRunner.query(`DROP TABLE "auth"."sessions"`);
  }
}
