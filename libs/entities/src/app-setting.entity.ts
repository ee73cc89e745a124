import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * Values the server decided for itself on first start so that a restart reuses them: generated
 * secrets (JWT secret, data-platform keys, the enrollment function's backend key) and the ids of
 * the default client and site. Never exposed over HTTP; `secret` rows are never logged.
 */
@Entity({ name: 'app_settings' })
export class AppSettingEntity {
  @PrimaryColumn({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  value: string;

  @Column({ type: 'boolean', default: false })
  secret: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
