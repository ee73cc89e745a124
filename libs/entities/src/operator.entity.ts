import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { OPERATOR_ROLES, OperatorRole, sqlList } from './enums';

/**
 * A person who signs in to the console (docs/console.md): separate from the data platform's end users.
 * `clients` null = every client; a list = only those clients' agents, deployments, checks, tasks, alerts and runs.
 */
@Entity({ name: 'operators' })
@Index('UQ_operators_oidc', ['oidcIssuer', 'oidcSubject'], { unique: true, where: `"oidc_subject" IS NOT NULL` })
@Check('CHK_operators_role', `"role" IN (${sqlList(OPERATOR_ROLES)})`)
export class OperatorEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Stored lower-case; unique. */
  @Index('UQ_operators_email', { unique: true })
  @Column({ type: 'text' })
  email: string;

  /** argon2id, as the data platform's users; null for an operator who signs in only through the provider (or a passkey). */
  @Column({ name: 'password_hash', type: 'text', nullable: true })
  passwordHash: string | null;

  @Column({ type: 'text' })
  role: OperatorRole;

  @Column({ type: 'integer', array: true, nullable: true })
  clients: number[] | null;

  /** The TOTP secret (base32), once TOTP is set up; null = no second factor. */
  @Column({ name: 'totp_secret', type: 'text', nullable: true })
  totpSecret: string | null;

  /** SHA-256 (hex) of each unused recovery code. */
  @Column({ name: 'recovery_codes', type: 'text', array: true, default: () => "'{}'" })
  recoveryCodes: string[];

  /** The last TOTP time step accepted: a code is good once. */
  @Column({ name: 'totp_last_step', type: 'bigint', nullable: true })
  totpLastStep: string | null;

  @Column({ type: 'boolean', default: false })
  disabled: boolean;

  /** May sign in with a password even when RMM_PASSWORD_LOGIN=false (`operator create … --break-glass`; docs/sso.md). */
  @Column({ name: 'break_glass', type: 'boolean', default: false })
  breakGlass: boolean;

  /** The OpenID provider account this operator is (issuer + `sub`, unique together); null = none linked. */
  @Column({ name: 'oidc_issuer', type: 'text', nullable: true })
  oidcIssuer: string | null;

  @Column({ name: 'oidc_subject', type: 'text', nullable: true })
  oidcSubject: string | null;

  /**
   * Set by `operator link-oidc --email E`: the next provider sign-in with this e-mail (verified by the provider) links
   * that account to this operator, once. Never linked by e-mail without it.
   */
  @Column({ name: 'oidc_link_allowed', type: 'boolean', default: false })
  oidcLinkAllowed: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
