import { Column, CreateDateColumn, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { UserEntity } from './user.entity';

/**
 * Maps a user to a tenant of the RMM backend. The rmm_* ids refer to the backend the
 * enrollment function talks to (RMM_API_URL), which may be another server, so they carry
 * no foreign keys to this server's clients, sites or agents.
 */
@Entity({ name: 'user_profiles' })
export class UserProfileEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @OneToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'id' })
  user?: UserEntity;

  @Column({ name: 'rmm_client_id', type: 'integer', nullable: true })
  rmmClientId: number | null;

  @Column({ name: 'rmm_site_id', type: 'integer', nullable: true })
  rmmSiteId: number | null;

  @Index('IDX_user_profiles_rmm_agent_id')
  @Column({ name: 'rmm_agent_id', type: 'integer', nullable: true })
  rmmAgentId: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
