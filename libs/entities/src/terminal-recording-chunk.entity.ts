import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TerminalSessionEntity } from './terminal-session.entity';

/**
 * A piece of a terminal session's recording (RMM_TERMINAL_RECORDING=true; docs/terminal.md, "Recording"): asciicast
 * v2 event lines, appended every few seconds while the session runs, so that a long session is never held in memory.
 * GET /api/v3/terminal-sessions/{id}/recording streams them in order after the header; kept
 * RMM_TERMINAL_RECORDING_DAYS after the session closed.
 */
@Entity({ name: 'terminal_recording_chunks' })
export class TerminalRecordingChunkEntity {
  @PrimaryColumn({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @ManyToOne(() => TerminalSessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: TerminalSessionEntity;

  /** The chunk's place in the recording (0, 1, …). */
  @PrimaryColumn({ type: 'integer' })
  seq: number;

  /** asciicast v2 event lines (`[time, "o", text]`, `[time, "r", "COLSxROWS"]`), each ending in a newline. */
  @Column({ type: 'text' })
  lines: string;
}
