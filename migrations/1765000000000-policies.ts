import { MigrationInterface, QueryRunner } from 'typeorm';

const SCOPES_BEFORE = `'admin', 'agents:read', 'agents:write', 'deployments:read', 'deployments:write', 'clients:read', 'clients:write', 'scripts:read', 'scripts:write', 'scripts:run', 'checks:read', 'checks:write', 'tasks:read', 'tasks:write', 'alerts:read', 'alerts:write', 'notifications:read', 'notifications:write'`;

/**
 * Managing machines in groups (issue #31, docs/policies.md): agents' tags and maintenance; automation policies
 * (policies) with their items' definitions (policy_checks, policy_tasks) and per-agent overrides
 * (policy_overrides); checks and tasks become per-agent *state* rows that either define themselves (the agent's
 * own, policy_*_id null, as every existing row) or are an agent's state of a policy item. Every existing check,
 * task, result and alert is kept as it is. Task runs may end `skipped` (maintenance). Keys may carry
 * policies:read / policies:write.
 */

export class Policies1765000000000 implements MigrationInterface {
    name = 'Policies1765000000000';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "policies" (
                "id" SERIAL NOT NULL,
                "name" text NOT NULL,
                "description" text,
                "enabled" boolean NOT NULL DEFAULT true,
                "enforced" boolean NOT NULL DEFAULT false,
                "priority" integer NOT NULL DEFAULT '500',
                "targets" jsonb NOT NULL DEFAULT '{}',
                "exclude" jsonb NOT NULL DEFAULT '{}',
                "maintenance_windows" jsonb NOT NULL DEFAULT '[]',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "CHK_policies_priority" CHECK (
                    "priority" BETWEEN 1 AND 1000
                ),
                CONSTRAINT "PK_603e09f183df0108d8695c57e28" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "UQ_policies_name" ON "policies" ("name")
        `);
        await queryRunner.query(`
            CREATE TABLE "policy_checks" (
                "id" SERIAL NOT NULL,
                "policy_id" integer NOT NULL,
                "position" integer NOT NULL,
                "key" text NOT NULL,
                "check_type" text NOT NULL,
                "name" text NOT NULL,
                "settings" jsonb NOT NULL DEFAULT '{}',
                "script_id" integer,
                "run_interval" integer NOT NULL DEFAULT '120',
                "fails_b4_alert" integer NOT NULL DEFAULT '1',
                "severity" text NOT NULL DEFAULT 'warning',
                CONSTRAINT "CHK_policy_checks_severity" CHECK ("severity" IN ('info', 'warning', 'error')),
                CONSTRAINT "CHK_policy_checks_run_interval" CHECK (
                    "run_interval" BETWEEN 5 AND 86400
                ),
                CONSTRAINT "CHK_policy_checks_fails_b4_alert" CHECK ("fails_b4_alert" >= 1),
                CONSTRAINT "CHK_policy_checks_check_type" CHECK (
                    "check_type" IN (
                        'diskspace',
                        'ping',
                        'cpuload',
                        'memory',
                        'winsvc',
                        'script',
                        'eventlog'
                    )
                ),
                CONSTRAINT "PK_371f050a7369ccd6bb8c840554a" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_policy_checks_policy" ON "policy_checks" ("policy_id", "position")
        `);
        await queryRunner.query(`
            CREATE TABLE "policy_tasks" (
                "id" SERIAL NOT NULL,
                "policy_id" integer NOT NULL,
                "position" integer NOT NULL,
                "key" text NOT NULL,
                "name" text NOT NULL,
                "script_id" integer NOT NULL,
                "args" jsonb NOT NULL DEFAULT '[]',
                "schedule" text NOT NULL,
                "timeout" integer,
                "queue_if_offline" boolean NOT NULL DEFAULT false,
                "skip_in_maintenance" boolean NOT NULL DEFAULT false,
                CONSTRAINT "CHK_policy_tasks_timeout" CHECK (
                    "timeout" IS NULL
                    OR "timeout" BETWEEN 1 AND 86400
                ),
                CONSTRAINT "PK_b911b4749ebd356cf59cf09f795" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_policy_tasks_policy" ON "policy_tasks" ("policy_id", "position")
        `);
        await queryRunner.query(`
            CREATE TABLE "policy_overrides" (
                "agent_id" integer NOT NULL,
                "policy_id" integer NOT NULL,
                "key" text NOT NULL,
                "disabled" boolean NOT NULL DEFAULT false,
                "settings" jsonb,
                "run_interval" integer,
                "fails_b4_alert" integer,
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_policy_overrides" PRIMARY KEY ("agent_id", "policy_id", "key")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_policy_overrides_policy" ON "policy_overrides" ("policy_id")
        `);
        await queryRunner.query(`
            ALTER TABLE "agents"
            ADD "tags" text array NOT NULL DEFAULT '{}'
        `);
        await queryRunner.query(`
            ALTER TABLE "agents"
            ADD "maintenance" boolean NOT NULL DEFAULT false
        `);
        await queryRunner.query(`
            ALTER TABLE "agents"
            ADD "maintenance_until" TIMESTAMP WITH TIME ZONE
        `);
        await queryRunner.query(`
            ALTER TABLE "agents"
            ADD "maintenance_policy_id" integer
        `);
        await queryRunner.query(`
            ALTER TABLE "checks"
            ADD "policy_check_id" integer
        `);
        await queryRunner.query(`
            ALTER TABLE "checks"
            ADD "shadowed_by_policy_check_id" integer
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks"
            ADD "args" jsonb NOT NULL DEFAULT '[]'
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks"
            ADD "timeout" integer
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks"
            ADD "skip_in_maintenance" boolean NOT NULL DEFAULT false
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks"
            ADD "policy_task_id" integer
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks"
            ADD "shadowed_by_policy_task_id" integer
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_agents_tags" ON "agents" USING gin ("tags")
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_checks_policy_check" ON "checks" ("policy_check_id")
            WHERE "policy_check_id" IS NOT NULL
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "UQ_checks_agent_policy_check" ON "checks" ("agent_id", "policy_check_id")
            WHERE "policy_check_id" IS NOT NULL
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_tasks_policy_task" ON "tasks" ("policy_task_id")
            WHERE "policy_task_id" IS NOT NULL
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "UQ_tasks_agent_policy_task" ON "tasks" ("agent_id", "policy_task_id")
            WHERE "policy_task_id" IS NOT NULL
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_checks"
            ADD CONSTRAINT "FK_policy_checks_policy" FOREIGN KEY ("policy_id") REFERENCES "policies"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_checks"
            ADD CONSTRAINT "FK_policy_checks_script" FOREIGN KEY ("script_id") REFERENCES "scripts"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_tasks"
            ADD CONSTRAINT "FK_policy_tasks_policy" FOREIGN KEY ("policy_id") REFERENCES "policies"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_tasks"
            ADD CONSTRAINT "FK_policy_tasks_script" FOREIGN KEY ("script_id") REFERENCES "scripts"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_overrides"
            ADD CONSTRAINT "FK_policy_overrides_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_overrides"
            ADD CONSTRAINT "FK_policy_overrides_policy" FOREIGN KEY ("policy_id") REFERENCES "policies"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "checks"
            ADD CONSTRAINT "FK_checks_policy_check" FOREIGN KEY ("policy_check_id") REFERENCES "policy_checks"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks"
            ADD CONSTRAINT "FK_tasks_policy_task" FOREIGN KEY ("policy_task_id") REFERENCES "policy_tasks"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`ALTER TABLE "task_runs" DROP CONSTRAINT "CHK_task_runs_status"`);
        await queryRunner.query(
            `ALTER TABLE "task_runs" ADD CONSTRAINT "CHK_task_runs_status" CHECK ("status" IN ('running', 'succeeded', 'failed', 'timed_out', 'agent_offline', 'interrupted', 'queued', 'skipped'))`,
        );
        await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "CHK_api_keys_scopes"`);
        await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "CHK_api_keys_scopes" CHECK ("scopes" <@ ARRAY[${SCOPES_BEFORE}, 'policies:read', 'policies:write']::text[] AND cardinality("scopes") > 0)`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`UPDATE "api_keys" SET "scopes" = array_remove(array_remove("scopes", 'policies:read'), 'policies:write')`);
        await queryRunner.query(`UPDATE "api_keys" SET "revoked_at" = coalesce("revoked_at", now()), "scopes" = '{agents:read}' WHERE cardinality("scopes") = 0`);
        await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "CHK_api_keys_scopes"`);
        await queryRunner.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "CHK_api_keys_scopes" CHECK ("scopes" <@ ARRAY[${SCOPES_BEFORE}]::text[] AND cardinality("scopes") > 0)`);
        await queryRunner.query(`DELETE FROM "task_runs" WHERE "status" = 'skipped'`);
        await queryRunner.query(`ALTER TABLE "task_runs" DROP CONSTRAINT "CHK_task_runs_status"`);
        await queryRunner.query(
            `ALTER TABLE "task_runs" ADD CONSTRAINT "CHK_task_runs_status" CHECK ("status" IN ('running', 'succeeded', 'failed', 'timed_out', 'agent_offline', 'interrupted', 'queued'))`,
        );
        await queryRunner.query(`
            ALTER TABLE "tasks" DROP CONSTRAINT "FK_tasks_policy_task"
        `);
        await queryRunner.query(`
            ALTER TABLE "checks" DROP CONSTRAINT "FK_checks_policy_check"
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_overrides" DROP CONSTRAINT "FK_policy_overrides_policy"
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_overrides" DROP CONSTRAINT "FK_policy_overrides_agent"
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_tasks" DROP CONSTRAINT "FK_policy_tasks_script"
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_tasks" DROP CONSTRAINT "FK_policy_tasks_policy"
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_checks" DROP CONSTRAINT "FK_policy_checks_script"
        `);
        await queryRunner.query(`
            ALTER TABLE "policy_checks" DROP CONSTRAINT "FK_policy_checks_policy"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."UQ_tasks_agent_policy_task"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_tasks_policy_task"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."UQ_checks_agent_policy_check"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_checks_policy_check"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_agents_tags"
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks" DROP COLUMN "shadowed_by_policy_task_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks" DROP COLUMN "policy_task_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks" DROP COLUMN "skip_in_maintenance"
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks" DROP COLUMN "timeout"
        `);
        await queryRunner.query(`
            ALTER TABLE "tasks" DROP COLUMN "args"
        `);
        await queryRunner.query(`
            ALTER TABLE "checks" DROP COLUMN "shadowed_by_policy_check_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "checks" DROP COLUMN "policy_check_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "agents" DROP COLUMN "maintenance_policy_id"
        `);
        await queryRunner.query(`
            ALTER TABLE "agents" DROP COLUMN "maintenance_until"
        `);
        await queryRunner.query(`
            ALTER TABLE "agents" DROP COLUMN "maintenance"
        `);
        await queryRunner.query(`
            ALTER TABLE "agents" DROP COLUMN "tags"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_policy_overrides_policy"
        `);
        await queryRunner.query(`
            DROP TABLE "policy_overrides"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_policy_tasks_policy"
        `);
        await queryRunner.query(`
            DROP TABLE "policy_tasks"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_policy_checks_policy"
        `);
        await queryRunner.query(`
            DROP TABLE "policy_checks"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."UQ_policies_name"
        `);
        await queryRunner.query(`
            DROP TABLE "policies"
        `);
    }

}
