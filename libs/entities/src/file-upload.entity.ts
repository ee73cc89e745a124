import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { sqlList } from './enums';

/** Where a resumable upload stands (docs/files.md). */
export const FILE_UPLOAD_STATUSES = ['open', 'done', 'failed', 'expired'] as const;
export type FileUploadStatus = (typeof FILE_UPLOAD_STATUSES)[number];

const bigintNumber = { to: (v: number) => v, from: (v: string | null) => (v === null ? 0 : Number(v)) };

/**
 * A resumable upload of one file to an agent (issue #32, docs/files.md): its target, size and SHA-256 as the caller
 * declared them, and how many bytes the agent has written to its temporary file. Open for 24 hours.
 */
@Entity({ name: 'file_uploads' })
@Check('CHK_file_uploads_status', `"status" IN (${sqlList(FILE_UPLOAD_STATUSES)})`)
@Index('IDX_file_uploads_open', ['status', 'expiresAt'])
export class FileUploadEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'agent_id', type: 'integer' })
  agentId: number;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id' })
  agent?: AgentEntity;

  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'bigint', transformer: bigintNumber })
  size: number;

  @Column({ type: 'text' })
  sha256: string;

  @Column({ type: 'boolean', default: false })
  overwrite: boolean;

  @Column({ type: 'bigint', default: 0, transformer: bigintNumber })
  received: number;

  @Column({ type: 'text', default: 'open' })
  status: FileUploadStatus;

  /** Who started it (the operator's e-mail or the key's name), and the caller (`operator:5`): only it continues it. */
  @Column({ name: 'created_by', type: 'text' })
  createdBy: string;

  @Column({ type: 'text' })
  caller: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
