import { MigrationInterface, QueryRunner } from 'typeorm';

/** An audit row may carry what its change did, before and after (issue #31: policies are audited so). */
export class AuditChanges1765000000900 implements MigrationInterface {
    name = 'AuditChanges1765000000900';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "audit_log"
            ADD "changes" jsonb
        `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            ALTER TABLE "audit_log" DROP COLUMN "changes"
        `);
    }
}
