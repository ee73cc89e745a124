import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Terminal sessions' lease (issue #32, docs/terminal.md "Limits"): `held_until`, renewed every 5 s by the instance
 * holding a session's WebSocket; a session whose instance died stops counting when it runs out and is closed.
 */
export class TerminalHeldUntil1765100600000 implements MigrationInterface {
    name = 'TerminalHeldUntil1765100600000';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "terminal_sessions" ADD "held_until" TIMESTAMP WITH TIME ZONE`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "terminal_sessions" DROP COLUMN "held_until"`);
    }
}
