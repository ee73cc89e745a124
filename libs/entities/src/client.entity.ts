import { Check, Column, CreateDateColumn, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { AGENT_UPDATE_MODES, AgentUpdateMode, sqlList } from './enums';
import { SiteEntity } from './site.entity';

@Entity({ name: 'clients' })
@Check('CHK_clients_agent_update', `"agent_update" IN (${sqlList(AGENT_UPDATE_MODES)})`)
export class ClientEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text', unique: true })
  name: string;

  /** `auto`: its agents are updated to the server's agent version (staged, RMM_AGENT_UPDATE_CONCURRENCY at once); `off`: never. */
  @Column({ name: 'agent_update', type: 'text', default: 'auto' })
  agentUpdate: AgentUpdateMode;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @OneToMany(() => SiteEntity, (site) => site.client)
  sites?: SiteEntity[];
}
