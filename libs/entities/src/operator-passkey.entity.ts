import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { OperatorEntity } from './operator.entity';

/** A passkey (WebAuthn credential) an operator registered (docs/sso.md, "Passkeys"). */
@Entity({ name: 'operator_passkeys' })
export class OperatorPasskeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('IDX_operator_passkeys_operator')
  @Column({ name: 'operator_id', type: 'integer' })
  operatorId: number;

  @ManyToOne(() => OperatorEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'operator_id' })
  operator?: OperatorEntity;

  /** The credential id, base64url: unique across every operator. */
  @Index('UQ_operator_passkeys_credential', { unique: true })
  @Column({ name: 'credential_id', type: 'text' })
  credentialId: string;

  /** The COSE public key as the authenticator gave it. */
  @Column({ name: 'public_key', type: 'bytea' })
  publicKey: Buffer;

  /** The signature counter last seen (0 for authenticators that keep none): a lower one is a cloned credential. */
  @Column({ type: 'bigint', default: 0 })
  counter: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  transports: string[];

  /** singleDevice | multiDevice (synced), and whether it is backed up, as the authenticator said. */
  @Column({ name: 'device_type', type: 'text', nullable: true })
  deviceType: string | null;

  @Column({ name: 'backed_up', type: 'boolean', default: false })
  backedUp: boolean;

  /** The operator's name for it ("YubiKey 5", "MacBook"). */
  @Column({ type: 'text' })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
