import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { ClientEntity } from './client.entity';

@Entity({ name: 'sites' })
@Unique('UQ_sites_client_name', ['clientId', 'name'])
// Target of the composite foreign keys (client_id, site_id) of agents and deployments,
// which make "the site belongs to the client" a database rule.
@Unique('UQ_sites_client_id_id', ['clientId', 'id'])
export class SiteEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ name: 'client_id', type: 'integer' })
  clientId: number;

  @ManyToOne(() => ClientEntity, (client) => client.sites, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_id' })
  client?: ClientEntity;

  @Column({ type: 'text' })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
