import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Terminal recordings (issue #32, docs/terminal.md, "Recording"): asciicast v2 event lines of a session's output, in
 * chunks appended while it runs (never the whole recording in memory), deleted with their session.
 */
export class TerminalRecordings1765100500000 implements MigrationInterface {
    name = 'TerminalRecordings1765100500000';

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "terminal_recording_chunks" ("session_id" uuid NOT NULL, "seq" integer NOT NULL, "lines" text NOT NULL, CONSTRAINT "PK_14f669f7b27f58775011f376923" PRIMARY KEY ("session_id", "seq"))`);
        await queryRunner.query(`ALTER TABLE "terminal_recording_chunks" ADD CONSTRAINT "FK_2e0028c0b32acf897ddf16c4d4b" FOREIGN KEY ("session_id") REFERENCES "terminal_sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "terminal_recording_chunks" DROP CONSTRAINT "FK_2e0028c0b32acf897ddf16c4d4b"`);
        await queryRunner.query(`DROP TABLE "terminal_recording_chunks"`);
    }
}
