import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The whole schema of the spec: the data platform's users (auth.users), user_profiles and
 * enrollment_log, and the management backend's clients, sites, agents, deployments (and their
 * downloads), scripts, checks, tasks, alerts and API keys, plus the server's own settings (generated secrets, default tenant).
 * Generated from the entities by TypeORM, then reviewed (enrollment_log's index is DESC on time).
 * Keep to SQL that PostgreSQL 15 accepts.
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SCHEMA IF NOT EXISTS "auth"`);
    await queryRunner.query(`CREATE TABLE "sites" ("id" SERIAL NOT NULL, "client_id" integer NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_sites_client_id_id" UNIQUE ("client_id", "id"), CONSTRAINT "UQ_sites_client_name" UNIQUE ("client_id", "name"), CONSTRAINT "PK_4f5eccb1dfde10c9170502595a7" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "clients" ("id" SERIAL NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_99e921caf21faa2aab020476e44" UNIQUE ("name"), CONSTRAINT "PK_f1ab7cf3a5714dbc6bb4e1c28a4" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "api_keys" ("id" SERIAL NOT NULL, "name" text NOT NULL, "prefix" text NOT NULL, "secret_hash" text NOT NULL, "scopes" text array NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_api_keys_scopes" CHECK ("scopes" <@ ARRAY['admin', 'agents:read', 'agents:write', 'deployments:read', 'deployments:write', 'clients:read', 'clients:write', 'scripts:read', 'scripts:write', 'scripts:run', 'checks:read', 'checks:write', 'tasks:read', 'tasks:write', 'alerts:read', 'alerts:write']::text[] AND cardinality("scopes") > 0), CONSTRAINT "PK_5c8a79801b44bd27b79228e1dad" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_api_keys_prefix" ON "api_keys" ("prefix")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_api_keys_secret_hash" ON "api_keys" ("secret_hash")`);
    await queryRunner.query(`CREATE TABLE "deployments" ("id" SERIAL NOT NULL, "uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "client_id" integer NOT NULL, "site_id" integer NOT NULL, "arch" text NOT NULL DEFAULT 'amd64', "install_flags" text, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_by_key_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_deployments_arch" CHECK ("arch" IN ('amd64', 'arm64', 'amd64-mac', 'arm64-mac')), CONSTRAINT "PK_1e5627acb3c950deb83fe98fc48" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_deployments_uuid" ON "deployments" ("uuid")`);
    await queryRunner.query(`CREATE INDEX "IDX_deployments_active" ON "deployments" ("expires_at") WHERE "revoked_at" IS NULL`);
    await queryRunner.query(`CREATE TABLE "agents" ("id" SERIAL NOT NULL, "hostname" text NOT NULL, "client_id" integer, "site_id" integer, "plat" text NOT NULL, "monitoring_type" text NOT NULL DEFAULT 'workstation', "operating_system" text, "version" text NOT NULL DEFAULT '0.0.0', "last_seen" TIMESTAMP WITH TIME ZONE, "status" text NOT NULL DEFAULT 'offline', "logged_in_username" text, "public_ip" text, "local_ip" text, "cpu_model" text, "total_ram" double precision, "disks" jsonb, "patches_pending" integer NOT NULL DEFAULT '0', "wmi_detail" jsonb, "secret_hash" text, "deployment_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_agents_status" CHECK ("status" IN ('online', 'offline', 'overdue')), CONSTRAINT "CHK_agents_monitoring_type" CHECK ("monitoring_type" IN ('server', 'workstation')), CONSTRAINT "CHK_agents_plat" CHECK ("plat" IN ('windows', 'darwin', 'linux')), CONSTRAINT "PK_9c653f28ae19c5884d5baf6a1d9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_agents_site" ON "agents" ("site_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_agents_hostname" ON "agents" ("hostname")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "UQ_agents_client_hostname" ON "agents" ("client_id", "hostname")`);
    await queryRunner.query(`CREATE TABLE "scripts" ("id" SERIAL NOT NULL, "name" text NOT NULL, "shell" text NOT NULL, "description" text, "body" text NOT NULL DEFAULT '', "default_args" text array NOT NULL DEFAULT '{}', "default_timeout" integer NOT NULL DEFAULT '90', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_bb647a87604b3a3d108219194c0" UNIQUE ("name"), CONSTRAINT "CHK_scripts_default_timeout" CHECK ("default_timeout" BETWEEN 1 AND 300), CONSTRAINT "CHK_scripts_shell" CHECK ("shell" IN ('powershell', 'cmd', 'python', 'bash')), CONSTRAINT "PK_399d1c469ffd6bac4e061e5fd8c" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "checks" ("id" SERIAL NOT NULL, "agent_id" integer NOT NULL, "check_type" text NOT NULL, "name" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "more_info" text, "last_run" TIMESTAMP WITH TIME ZONE, "settings" jsonb NOT NULL DEFAULT '{}', "script_id" integer, "fails_b4_alert" integer NOT NULL DEFAULT '1', "fail_count" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "CHK_checks_fails_b4_alert" CHECK ("fails_b4_alert" >= 1), CONSTRAINT "CHK_checks_status" CHECK ("status" IN ('passing', 'failing', 'pending')), CONSTRAINT "CHK_checks_check_type" CHECK ("check_type" IN ('diskspace', 'ping', 'cpuload', 'memory', 'winsvc', 'script', 'eventlog')), CONSTRAINT "PK_5b78bc7432d3654a701ca5f35e5" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_checks_agent" ON "checks" ("agent_id")`);
    await queryRunner.query(`CREATE TABLE "tasks" ("id" SERIAL NOT NULL, "name" text NOT NULL, "agent_id" integer NOT NULL, "script_id" integer NOT NULL, "schedule" text NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "next_run_at" TIMESTAMP WITH TIME ZONE, "last_run_at" TIMESTAMP WITH TIME ZONE, "last_retcode" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8d12ff38fcc62aaba2cab748772" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_tasks_due" ON "tasks" ("next_run_at") WHERE "enabled"`);
    await queryRunner.query(`CREATE INDEX "IDX_tasks_agent" ON "tasks" ("agent_id")`);
    await queryRunner.query(`CREATE TABLE "alerts" ("id" SERIAL NOT NULL, "alert_type" text NOT NULL, "agent_id" integer NOT NULL, "check_id" integer, "task_id" integer, "severity" text NOT NULL, "message" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "snoozed" boolean NOT NULL DEFAULT false, "snooze_until" TIMESTAMP WITH TIME ZONE, "acknowledged" boolean NOT NULL DEFAULT false, "acknowledged_at" TIMESTAMP WITH TIME ZONE, "acknowledged_by" text, "resolved" boolean NOT NULL DEFAULT false, "resolved_at" TIMESTAMP WITH TIME ZONE, "resolved_by" text, CONSTRAINT "CHK_alerts_severity" CHECK ("severity" IN ('info', 'warning', 'error')), CONSTRAINT "CHK_alerts_alert_type" CHECK ("alert_type" IN ('check_failure', 'task_failure', 'agent_overdue')), CONSTRAINT "PK_60f895662df096bfcdfab7f4b96" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_alerts_agent" ON "alerts" ("agent_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_alerts_active" ON "alerts" ("created_at") WHERE NOT "resolved"`);
    await queryRunner.query(`CREATE TABLE "app_settings" ("name" text NOT NULL, "value" text NOT NULL, "secret" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dabc627eef37867fd10af3a67bd" PRIMARY KEY ("name"))`);
    await queryRunner.query(`CREATE TABLE "deployment_downloads" ("id" BIGSERIAL NOT NULL, "deployment_id" integer NOT NULL, "downloaded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "ip" text, "user_agent" text, "status" integer NOT NULL, CONSTRAINT "PK_36318ef58f9892b2719e15a38d9" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_deployment_downloads_deployment" ON "deployment_downloads" ("deployment_id", "downloaded_at")`);
    await queryRunner.query(`CREATE TABLE "auth"."users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" text NOT NULL, "encrypted_password" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE TABLE "enrollment_log" ("id" BIGSERIAL NOT NULL, "user_id" uuid NOT NULL, "deployment_uuid" text NOT NULL, "client_id" integer NOT NULL, "site_id" integer NOT NULL, "hostname" text, "platform" text, "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, "agent_id" integer, "status" text NOT NULL DEFAULT 'pending', CONSTRAINT "CHK_enrollment_log_status" CHECK ("status" IN ('pending', 'completed', 'expired', 'failed')), CONSTRAINT "PK_5f9ec1dfeeca1745ab45a7f8199" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_enrollment_log_deployment_uuid" ON "enrollment_log" ("deployment_uuid")`);
    await queryRunner.query(`CREATE INDEX "IDX_enrollment_log_user_requested" ON "enrollment_log" ("user_id", "requested_at" DESC)`);
    await queryRunner.query(`CREATE TABLE "user_profiles" ("id" uuid NOT NULL, "rmm_client_id" integer, "rmm_site_id" integer, "rmm_agent_id" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1ec6662219f4605723f1e41b6cb" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "IDX_user_profiles_rmm_agent_id" ON "user_profiles" ("rmm_agent_id")`);
    await queryRunner.query(`ALTER TABLE "sites" ADD CONSTRAINT "FK_e3778eac3a27199aabb29d1724f" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "deployments" ADD CONSTRAINT "FK_a4e05c06ab4a4ffb7829fa23a34" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "deployments" ADD CONSTRAINT "FK_e173f6a13e6e3079f52998ab57d" FOREIGN KEY ("site_id", "client_id") REFERENCES "sites"("id","client_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "deployments" ADD CONSTRAINT "FK_99e2cfc92dd5f7474df3c7bce9d" FOREIGN KEY ("created_by_key_id") REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agents" ADD CONSTRAINT "FK_09ca226fd0ddcafb5fc89cce609" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agents" ADD CONSTRAINT "FK_777209b3a069ae84371d727f355" FOREIGN KEY ("site_id", "client_id") REFERENCES "sites"("id","client_id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "agents" ADD CONSTRAINT "FK_f28232ad7b4c8e62a5e0dc6b4e8" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "checks" ADD CONSTRAINT "FK_33a40c8c74f7495020bba65f60a" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "checks" ADD CONSTRAINT "FK_588de5912ef88a88fd643681827" FOREIGN KEY ("script_id") REFERENCES "scripts"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD CONSTRAINT "FK_bcb2622b3a762eb82f65b76d371" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "tasks" ADD CONSTRAINT "FK_6e4726cae38883e6e7ca47e290f" FOREIGN KEY ("script_id") REFERENCES "scripts"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD CONSTRAINT "FK_01b90671fa03b181c349bc83e03" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD CONSTRAINT "FK_8f61c3c1399cab42395878a856b" FOREIGN KEY ("check_id") REFERENCES "checks"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "alerts" ADD CONSTRAINT "FK_c4ee31027b84c7766629bb95870" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "deployment_downloads" ADD CONSTRAINT "FK_1aabb768866159dbbc32dc31769" FOREIGN KEY ("deployment_id") REFERENCES "deployments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "enrollment_log" ADD CONSTRAINT "FK_d2ae4431cf72a7fe16ded3d741a" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "user_profiles" ADD CONSTRAINT "FK_1ec6662219f4605723f1e41b6cb" FOREIGN KEY ("id") REFERENCES "auth"."users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS "user_profiles" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "enrollment_log" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "auth"."users" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "deployment_downloads" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "app_settings" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "alerts" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "tasks" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "checks" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "scripts" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "agents" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "deployments" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "api_keys" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "clients" CASCADE`);
    await queryRunner.query(`DROP TABLE IF EXISTS "sites" CASCADE`);
    await queryRunner.query(`DROP SCHEMA IF EXISTS "auth"`);
  }
}
