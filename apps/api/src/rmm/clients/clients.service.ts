import { Injectable } from '@nestjs/common';
import { ClientEntity, SiteEntity } from '@app/entities';
import { DomainError, ErrorKind, invalid, notFound } from '../../common/errors/domain-error';
import { isUniqueViolation } from '../../database/pg-errors';
import { ClientsRepository } from './clients.repository';

@Injectable()
export class ClientsService {
  constructor(private readonly repo: ClientsRepository) {}

  list(): Promise<ClientEntity[]> {
    return this.repo.listWithSites();
  }

  findSite(id: number): Promise<SiteEntity | null> {
    return this.repo.findSite(id);
  }

  async createClient(name: string): Promise<ClientEntity> {
    const clean = requireName(name);
    try {
      return await this.repo.insertClient(clean);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(ErrorKind.Conflict, `a client named "${clean}" already exists`, [], 400);
      throw err;
    }
  }

  async createSite(clientId: number, name: string): Promise<SiteEntity> {
    const clean = requireName(name);
    if (!(await this.repo.findClient(clientId))) throw notFound();
    try {
      return await this.repo.insertSite(clientId, clean);
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new DomainError(ErrorKind.Conflict, `client ${clientId} already has a site named "${clean}"`, [], 400);
      }
      throw err;
    }
  }

  /** The client and site with these names, created when missing (the default tenant). */
  async ensureClientAndSite(clientName: string, siteName: string): Promise<{ client: ClientEntity; site: SiteEntity }> {
    const client = (await this.repo.findClientByName(clientName)) ?? (await this.createClient(clientName));
    const site = (await this.repo.findSiteByName(client.id, siteName)) ?? (await this.createSite(client.id, siteName));
    return { client, site };
  }
}

function requireName(name: string): string {
  const clean = (name ?? '').trim();
  if (!clean) throw invalid('name must not be empty', [{ field: 'name', message: 'must not be empty' }]);
  if (clean.length > 200) throw invalid('name is too long', [{ field: 'name', message: 'at most 200 characters' }]);
  return clean;
}
