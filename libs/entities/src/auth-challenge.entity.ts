import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A sign-in or registration in flight, used once (docs/sso.md): an OpenID round trip (`oidc`: state, nonce, PKCE
 * verifier, where to return) or a WebAuthn ceremony (`passkey_register`, `passkey_sign_in`, `passkey_step_up`: the
 * challenge). Stored in the database so that any instance can finish what another began; deleted when used or expired.
 */
@Entity({ name: 'auth_challenges' })
export class AuthChallengeEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  purpose: string;

  /** The operator it is for, when known (registration, step-up); null for a sign-in. */
  @Column({ name: 'operator_id', type: 'integer', nullable: true })
  operatorId: number | null;

  /** The console session it belongs to (step-up), if any. */
  @Column({ name: 'session_id', type: 'uuid', nullable: true })
  sessionId: string | null;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Index('IDX_auth_challenges_expires')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
