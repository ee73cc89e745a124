import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { SessionEntity } from './session.entity';

/**
 * A refresh token (GoTrue's auth.refresh_tokens), stored as its SHA-256 only. Single use: using it
 * marks it revoked and issues the next one in the same session.
 */
@Entity({ name: 'refresh_tokens', schema: 'auth' })
export class RefreshTokenEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Index('UQ_auth_refresh_tokens_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Index('IDX_auth_refresh_tokens_session')
  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @ManyToOne(() => SessionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: SessionEntity;

  @Column({ type: 'boolean', default: false })
  revoked: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
