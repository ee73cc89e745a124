import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { sqlList } from './enums';

/** Why a terminal session ended (docs/terminal.md). */
export const TERMINAL_END_REASONS = ['exit', 'closed', 'idle', 'max_duration', 'agent_offline', 'ended_by_admin', 'expired'] as const;
export type TerminalEndReason = (typeof TERMINAL_END_REASONS)[number];

/**
 * A remote terminal on an agent (issue #32, docs/terminal.md): created by POST /api/v3/agents/{id}/terminal/ with a
 * one-time ticket (`ticket_expires_at`), opened when the caller's WebSocket is accepted, closed with its reason and
 * byte counts. It counts toward the per-agent and per-caller limits from its creation until it closes or its
 * unused ticket expires.
 */
@Entity({ name: 'terminal_sessions' })
@Check('CHK_terminal_sessions_end_reason', `"end_reason" IS NULL OR "end_reason" IN (${sqlList(TERMINAL_END_REASONS)})`)
@Index('IDX_terminal_sessions_agent', ['agentId', 'createdAt'])
export class TerminalSessionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'agent_id', type: 'integer' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id' })
  agent?: AgentEntity;

  /** Who opened it, as the audit log names callers: the operator's e-mail or the key's name. */
  @Column({ name: 'opened_by', type: 'text' })
  openedBy: string;

  /** The caller (`operator:5`, `api_key:3`): only it may accept the ticket; its open sessions are counted. */
  @Column({ type: 'text' })
  caller: string;

  @Column({ type: 'integer' })
  cols: number;

  @Column({ type: 'integer' })
  rows: number;

  @Column({ type: 'text', nullable: true })
  shell: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** The ticket's end: an unaccepted session stops counting then. */
  @Column({ name: 'ticket_expires_at', type: 'timestamptz' })
  ticketExpiresAt: Date;

  /** When the WebSocket was accepted (null: not yet). */
  @Column({ name: 'opened_at', type: 'timestamptz', nullable: true })
  openedAt: Date | null;

  /**
   * Once accepted: the lease of the instance holding its WebSocket, renewed every 5 s; past it (that instance died,
   * or the upgrade never completed) the session stops counting and is closed.
   */
  @Column({ name: 'held_until', type: 'timestamptz', nullable: true })
  heldUntil: Date | null;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt: Date | null;

  /** Bytes from the caller to the shell. */
  @Column({ name: 'bytes_in', type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | null) => (v === null ? 0 : Number(v)) } })
  bytesIn: number;

  /** Bytes from the shell to the caller. */
  @Column({ name: 'bytes_out', type: 'bigint', default: 0, transformer: { to: (v: number) => v, from: (v: string | null) => (v === null ? 0 : Number(v)) } })
  bytesOut: number;

  @Column({ name: 'end_reason', type: 'text', nullable: true })
  endReason: TerminalEndReason | null;

  /** The shell's exit code, when it exited. */
  @Column({ name: 'exit_code', type: 'integer', nullable: true })
  exitCode: number | null;

}
