import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ClientEntity, SiteEntity } from '@app/entities';

@Injectable()
export class ClientsRepository {
  constructor(
    @InjectRepository(ClientEntity) private readonly clients: Repository<ClientEntity>,
    @InjectRepository(SiteEntity) private readonly sites: Repository<SiteEntity>,
  ) {}

  /** Clients with their sites, both ordered by id. */
  listWithSites(): Promise<ClientEntity[]> {
    return this.clients.find({ relations: { sites: true }, order: { id: 'ASC', sites: { id: 'ASC' } } });
  }

  findClient(id: number): Promise<ClientEntity | null> {
    return this.clients.findOneBy({ id });
  }

  findClientByName(name: string): Promise<ClientEntity | null> {
    return this.clients.findOneBy({ name });
  }

  findSite(id: number): Promise<SiteEntity | null> {
    return this.sites.findOneBy({ id });
  }

  findSiteByName(clientId: number, name: string): Promise<SiteEntity | null> {
    return this.sites.findOneBy({ clientId, name });
  }

  listSites(clientId: number): Promise<SiteEntity[]> {
    return this.sites.find({ where: { clientId }, order: { id: 'ASC' } });
  }

  insertClient(name: string): Promise<ClientEntity> {
    return this.clients.save(this.clients.create({ name }));
  }

  insertSite(clientId: number, name: string): Promise<SiteEntity> {
    return this.sites.save(this.sites.create({ clientId, name }));
  }
}
