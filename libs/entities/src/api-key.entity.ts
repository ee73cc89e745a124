import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { API_KEY_SCOPES, ApiKeyScope, sqlList } from './enums';

/** A management-backend API key. Only a hash of the secret is stored. */
@Entity({ name: 'api_keys' })
@Check('CHK_api_keys_scopes', `"scopes" <@ ARRAY[${sqlList(API_KEY_SCOPES)}]::text[] AND cardinality("scopes") > 0`)
export class ApiKeyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  /** The first characters of the secret, safe to show, used to find the row. */
  @Index('IDX_api_keys_prefix')
  @Column({ type: 'text' })
  prefix: string;

  /** SHA-256 (hex) of the whole secret. */
  @Index('UQ_api_keys_secret_hash', { unique: true })
  @Column({ name: 'secret_hash', type: 'text' })
  secretHash: string;

  @Column({ type: 'text', array: true })
  scopes: ApiKeyScope[];

  /** The clients this key may see and act in; null = every client (docs/console.md, "Client-limited access"). */
  @Column({ type: 'integer', array: true, nullable: true })
  clients: number[] | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
