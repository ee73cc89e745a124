import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { DeploymentEntity } from './deployment.entity';

/** Every download of a deployment's installer: when and from where. */
@Entity({ name: 'deployment_downloads' })
@Index('IDX_deployment_downloads_deployment', ['deploymentId', 'downloadedAt'])
export class DeploymentDownloadEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'deployment_id', type: 'integer' })
  deploymentId: number;

  @ManyToOne(() => DeploymentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'deployment_id' })
  deployment?: DeploymentEntity;

  @Column({ name: 'downloaded_at', type: 'timestamptz', default: () => 'now()' })
  downloadedAt: Date;

  @Column({ type: 'text', nullable: true })
  ip: string | null;

  @Column({ name: 'user_agent', type: 'text', nullable: true })
  userAgent: string | null;

  /** HTTP status the download answered (200, 410 …). */
  @Column({ type: 'integer' })
  status: number;
}
