import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { OperatorEntity } from './operator.entity';

/** A console session: the cookie `rmm_session` carries its secret; only a SHA-256 of it is stored. */
@Entity({ name: 'operator_sessions' })
export class OperatorSessionEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('UQ_operator_sessions_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'text' })
  tokenHash: string;

  @Index('IDX_operator_sessions_operator')
  @Column({ name: 'operator_id', type: 'integer' })
  operatorId: number;

  @ManyToOne(() => OperatorEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'operator_id' })
  operator?: OperatorEntity;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Moved forward (at most once a minute) by requests: the idle timeout counts from here. */
  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt: Date;

  /** The absolute end: created_at + RMM_SESSION_MAX_HOURS (RMM_OIDC_MAX_SESSION_HOURS when signed in through the provider). */
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  /** When the operator last proved who they are in this session (sign-in, then each re-authentication): step-up counts from here. */
  @Column({ name: 'authenticated_at', type: 'timestamptz' })
  authenticatedAt: Date;

  /** How: password, password+totp, password+recovery_code, password+passkey, passkey, oidc (the last re-authentication's). */
  @Column({ type: 'text' })
  method: string;

  /** The address and User-Agent the session was signed in from (shown in the operator's sessions list). */
  @Column({ type: 'text', nullable: true })
  address: string | null;

  @Column({ name: 'user_agent', type: 'text', nullable: true })
  userAgent: string | null;
}
