import { MigrationInterface, QueryRunner } from 'typeorm';

const SCOPES_BEFORE = `'admin', 'agents:read', 'agents:write', 'deployments:read', 'deployments:write', 'clients:read', 'clients:write', 'scripts:read', 'scripts:write', 'scripts:run', 'checks:read', 'checks:write', 'tasks:read', 'tasks:write', 'alerts:read', 'alerts:write', 'notifications:read', 'notifications:write', 'policies:read', 'policies:write'`;

/**
 * Hands on the machine (issue #32, docs/terminal.md, docs/files.md): terminal sessions (one row each, with its
 * ticket, byte counts and end reason) and resumable file uploads; the scopes terminal, files:read and files:write.
 */
export class Sessions1765100000000 implements MigrationInterface {
    name = 'Sessions1765100000000';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "terminal_sessions" ("id" uuid NOT NULL, "agent_id" integer NOT NULL, "opened_by" text NOT NULL, "caller" text NOT NULL, "cols" integer NOT NULL, "rows" integer NOT NULL, "shell" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "ticket_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "opened_at" TIMESTAMP WITH TIME ZONE, "closed_at" TIMESTAMP WITH TIME ZONE, "bytes_in" bigint NOT NULL DEFAULT '0', "bytes_out" bigint NOT NULL DEFAULT '0', "end_reason" text, "exit_code" integer, CONSTRAINT "CHK_terminal_sessions_end_reason" CHECK ("end_reason" IS NULL OR "end_reason" IN ('exit', 'closed', 'idle', 'max_duration', 'agent_offline', 'ended_by_admin', 'expired')), CONSTRAINT "PK_10286b807e2224f1183d4d8a774" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_terminal_sessions_agent" ON "terminal_sessions"  ("agent_id", "created_at") `);
        await queryRunner.query(`CREATE TABLE "file_uploads" ("id" uuid NOT NULL, "agent_id" integer NOT NULL, "path" text NOT NULL, "size" bigint NOT NULL, "sha256" text NOT NULL, "overwrite" boolean NOT NULL DEFAULT false, "received" bigint NOT NULL DEFAULT '0', "status" text NOT NULL DEFAULT 'open', "created_by" text NOT NULL, "caller" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "CHK_file_uploads_status" CHECK ("status" IN ('open', 'done', 'failed', 'expired')), CONSTRAINT "PK_b3ebfc99a8b660f0bc64a052b42" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_file_uploads_open" ON "file_uploads"  ("status", "expires_at") `);
        await queryRunner.query(`ALTER TABLE "terminal_sessions" ADD CONSTRAINT "FK_9ad801633198f2af43cb91791b4" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "file_uploads" ADD CONSTRAINT "FK_1889ae22b476e94b8d1d6349180" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "CHK_api_keys_scopes"`);
        await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "CHK_api_keys_scopes" CHECK ("scopes" <@ ARRAY[${SCOPES_BEFORE}, 'terminal', 'files:read', 'files:write']::text[] AND cardinality("scopes") > 0)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`UPDATE "api_keys" SET "scopes" = array_remove(array_remove(array_remove("scopes", 'terminal'), 'files:read'), 'files:write')`);
        await queryRunner.query(`UPDATE "api_keys" SET "revoked_at" = coalesce("revoked_at", now()), "scopes" = '{agents:read}' WHERE cardinality("scopes") = 0`);
        await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "CHK_api_keys_scopes"`);
        await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "CHK_api_keys_scopes" CHECK ("scopes" <@ ARRAY[${SCOPES_BEFORE}]::text[] AND cardinality("scopes") > 0)`);
        await queryRunner.query(`ALTER TABLE "file_uploads" DROP CONSTRAINT "FK_1889ae22b476e94b8d1d6349180"`);
        await queryRunner.query(`ALTER TABLE "terminal_sessions" DROP CONSTRAINT "FK_9ad801633198f2af43cb91791b4"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_file_uploads_open"`);
        await queryRunner.query(`DROP TABLE "file_uploads"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_terminal_sessions_agent"`);
        await queryRunner.query(`DROP TABLE "terminal_sessions"`);
    }
}
