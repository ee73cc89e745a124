import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { OPERATOR_ROLES, OperatorRole, sqlList } from './enums';

/**
 * A person who signs in to the console (docs/console.md): separate from the data platform's end users.
 * `clients` null = every client; a list = only those clients' agents, deployments, checks, tasks, alerts and runs.
 */
@Entity({ name: 'operators' })
@Check('CHK_operators_role', `"role" IN (${sqlList(OPERATOR_ROLES)})`)
export class OperatorEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Stored lower-case; unique. */
  @Index('UQ_operators_email', { unique: true })
  @Column({ type: 'text' })
  email: string;

  /** argon2id, as the data platform's users. */
  @Column({ name: 'password_hash', type: 'text' })
  passwordHash: string;

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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
