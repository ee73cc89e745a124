import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom fields (issue #31, docs/custom-fields.md): their definitions (custom_fields, a name unique per scope) and
 * their values (custom_field_values: one per field and agent, site or client, dropped with either).
 */
export class CustomFields1765000100000 implements MigrationInterface {
    name = 'CustomFields1765000100000';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "custom_fields" (
                "id" SERIAL NOT NULL,
                "name" text NOT NULL,
                "label" text NOT NULL,
                "scope" text NOT NULL,
                "type" text NOT NULL,
                "options" jsonb,
                "default_value" jsonb,
                "required" boolean NOT NULL DEFAULT false,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "CHK_custom_fields_name" CHECK ("name" ~ '^[a-z][a-z0-9_]{0,63}$'),
                CONSTRAINT "CHK_custom_fields_type" CHECK (
                    "type" IN (
                        'text',
                        'number',
                        'boolean',
                        'date',
                        'select',
                        'multiselect',
                        'secret'
                    )
                ),
                CONSTRAINT "CHK_custom_fields_scope" CHECK ("scope" IN ('agent', 'site', 'client')),
                CONSTRAINT "PK_35ab958a0baec2e0b2b2b875fdb" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "UQ_custom_fields_scope_name" ON "custom_fields" ("scope", "name")
        `);
        await queryRunner.query(`
            CREATE TABLE "custom_field_values" (
                "id" BIGSERIAL NOT NULL,
                "field_id" integer NOT NULL,
                "agent_id" integer,
                "site_id" integer,
                "client_id" integer,
                "value" jsonb NOT NULL,
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "CHK_custom_field_values_owner" CHECK (
                    num_nonnulls("agent_id", "site_id", "client_id") = 1
                ),
                CONSTRAINT "PK_54ac5f4b6a1d6e65212ebdc222d" PRIMARY KEY ("id")
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "IDX_custom_field_values_field" ON "custom_field_values" ("field_id")
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "UQ_custom_field_values_client" ON "custom_field_values" ("client_id", "field_id")
            WHERE "client_id" IS NOT NULL
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "UQ_custom_field_values_site" ON "custom_field_values" ("site_id", "field_id")
            WHERE "site_id" IS NOT NULL
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "UQ_custom_field_values_agent" ON "custom_field_values" ("agent_id", "field_id")
            WHERE "agent_id" IS NOT NULL
        `);
        await queryRunner.query(`
            ALTER TABLE "custom_field_values"
            ADD CONSTRAINT "FK_custom_field_values_field" FOREIGN KEY ("field_id") REFERENCES "custom_fields"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "custom_field_values"
            ADD CONSTRAINT "FK_custom_field_values_agent" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "custom_field_values"
            ADD CONSTRAINT "FK_custom_field_values_site" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
        await queryRunner.query(`
            ALTER TABLE "custom_field_values"
            ADD CONSTRAINT "FK_custom_field_values_client" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "custom_field_values" DROP CONSTRAINT "FK_custom_field_values_client"
        `);
        await queryRunner.query(`
            ALTER TABLE "custom_field_values" DROP CONSTRAINT "FK_custom_field_values_site"
        `);
        await queryRunner.query(`
            ALTER TABLE "custom_field_values" DROP CONSTRAINT "FK_custom_field_values_agent"
        `);
        await queryRunner.query(`
            ALTER TABLE "custom_field_values" DROP CONSTRAINT "FK_custom_field_values_field"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."UQ_custom_field_values_agent"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."UQ_custom_field_values_site"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."UQ_custom_field_values_client"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."IDX_custom_field_values_field"
        `);
        await queryRunner.query(`
            DROP TABLE "custom_field_values"
        `);
        await queryRunner.query(`
            DROP INDEX "public"."UQ_custom_fields_scope_name"
        `);
        await queryRunner.query(`
            DROP TABLE "custom_fields"
        `);
    }

}
