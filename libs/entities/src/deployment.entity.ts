import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Generated,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';
import { ClientEntity } from './client.entity';
import { ARCHES, Arch, sqlList } from './enums';
import { SiteEntity } from './site.entity';

/** The longest install_flags (characters); control characters (U+0000-U+001F, U+007F) are refused too. */
export const INSTALL_FLAGS_MAX_LENGTH = 1000;

/** A one-time installer download for a client's site, active until expiry or revocation. */
@Entity({ name: 'deployments' })
@Check('CHK_deployments_arch', `"arch" IN (${sqlList(ARCHES)})`)
@Check('CHK_deployments_install_flags', `char_length("install_flags") <= ${INSTALL_FLAGS_MAX_LENGTH} AND "install_flags" !~ '[\\x01-\\x1f\\x7f]'`)
@Check('CHK_deployments_max_registrations', `"max_registrations" > 0`)
@Index('IDX_deployments_active', ['expiresAt'], { where: '"revoked_at" IS NULL' })
export class DeploymentEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Index('UQ_deployments_uuid', { unique: true })
  @Column({ type: 'uuid' })
  @Generated('uuid')
  uuid: string;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @ManyToOne(() => ClientEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_id' })
  client?: ClientEntity;

  @Column({ name: 'site_id', type: 'integer' })
  siteId: number;

  @ManyToOne(() => SiteEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'client_id', referencedColumnName: 'clientId' },
    { name: 'site_id', referencedColumnName: 'id' },
  ])
  site?: SiteEntity;

  @Column({ type: 'text', default: 'amd64' })
  arch: Arch;

  @Column({ name: 'install_flags', type: 'text', nullable: true })
  installFlags: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  /** Successful registrations (re-enrollments included) the link may make; null: any number. 1 is a one-time link. */
  @Column({ name: 'max_registrations', type: 'integer', nullable: true })
  maxRegistrations: number | null;

  /** Successful registrations made through it so far (re-enrollments included). */
  @Column({ type: 'integer', default: 0 })
  registrations: number;

  @Column({ name: 'created_by_key_id', type: 'integer', nullable: true })
  createdByKeyId: number | null;

  @ManyToOne(() => ApiKeyEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by_key_id' })
  createdByKey?: ApiKeyEntity | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
