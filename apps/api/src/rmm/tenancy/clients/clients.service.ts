import { Injectable } from '@nestjs/common';
import { AgentUpdateMode, ClientEntity, SiteEntity } from '@app/entities';
import { DomainError, fieldInvalid, notFound } from '../../../common/errors/domain-error';
import { isStillReferenced, isUniqueViolation } from '../../../database/pg-errors';
import { TransactionHost } from '../../../database/transaction-host';
import { ClientsErrorCode } from './clients.errors';
import { ClientsRepository } from './clients.repository';
import { ClientScope, EVERY_CLIENT, inScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';

const ALL: Page = { offset: 0 };

@Injectable()
export class ClientsService {
  constructor(
    private readonly repo: ClientsRepository,
    private readonly tx: TransactionHost,
  ) {}

  /** Every client with its sites. */
  async list(): Promise<ClientEntity[]> {
    return (await this.repo.listWithSites(ALL, EVERY_CLIENT))[0];
  }

  /**
   * One page of the clients the caller may see (`clients`), with their sites, and their number. For a
   * client-limited caller another client, its sites included, does not exist: 404 below.
   */
  async listPage(page: Page, clients: ClientScope): Promise<[ClientEntity[], number]> {
    const [rows, total] = await this.repo.listWithSites(page, clients);
    return [await this.repo.withFields('client', rows), total];
  }

  async exists(id: number): Promise<boolean> {
    return (await this.repo.findClient(id)) !== null;
  }

  findSite(id: number): Promise<SiteEntity | null> {
    return this.repo.findSite(id);
  }

  /** Whether the client exists, and which client the site belongs to (null: no such site). */
  placeOf(clientId: number, siteId: number): Promise<{ clientExists: boolean; siteClientId: number | null }> {
    return this.repo.placeOf(clientId, siteId);
  }

  async createClient(name: string, field = 'name'): Promise<ClientEntity> {
    const clean = requireName(name, field);
    try {
      return await this.repo.insertClient(clean);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(ClientsErrorCode.ClientNameTaken, `a client named "${clean}" already exists`, [{ field, message: 'already exists' }]);
      throw err;
    }
  }

  async createSite(clientId: number, name: string, clients: ClientScope, field = 'name'): Promise<SiteEntity> {
    const clean = requireName(name, field);
    if (!inScope(clients, clientId) || !(await this.repo.findClient(clientId))) throw notFound();
    try {
      const [site] = await this.repo.withFields('site', [await this.repo.insertSite(clientId, clean)]);
      return site;
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new DomainError(ClientsErrorCode.SiteNameTaken, `client ${clientId} already has a site named "${clean}"`, [{ field, message: 'already exists' }]);
      }
      throw err;
    }
  }

  async get(id: number, clients: ClientScope): Promise<ClientEntity> {
    const client = inScope(clients, id) ? await this.repo.findClientWithSites(id) : null;
    if (!client) throw notFound();
    return (await this.repo.withFields('client', [client]))[0];
  }

  /** A client and, when named, its first site: both or neither (one transaction). */
  createClientWithSite(name: string, siteName?: string, agentUpdate?: AgentUpdateMode): Promise<ClientEntity> {
    return this.tx.run(async () => {
      const client = await this.createClient(name);
      if (agentUpdate !== undefined) await this.repo.setAgentUpdate(client.id, agentUpdate);
      if (siteName !== undefined) await this.createSite(client.id, siteName, EVERY_CLIENT, 'site_name');
      return this.get(client.id, EVERY_CLIENT);
    });
  }

  async renameClient(id: number, name: string, clients: ClientScope): Promise<ClientEntity> {
    const field = 'name';
    const clean = requireName(name, field);
    if (!inScope(clients, id)) throw notFound();
    try {
      if (!(await this.repo.renameClient(id, clean))) throw notFound();
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(ClientsErrorCode.ClientNameTaken, `a client named "${clean}" already exists`, [{ field, message: 'already exists' }]);
      throw err;
    }
    return this.get(id, clients);
  }

  /**
   * PATCH: the name and/or agent_update (at least one), in one transaction. Turning updates off drops the client's
   * pending agent updates (those under way finish).
   */
  async updateClient(id: number, change: { name?: string; agentUpdate?: AgentUpdateMode }, clients: ClientScope): Promise<ClientEntity> {
    if (change.name === undefined && change.agentUpdate === undefined) throw fieldInvalid('name', 'give name or agent_update (or both)');
    if (!inScope(clients, id)) throw notFound();
    return this.tx.run(async () => {
      if (change.name !== undefined) await this.renameClient(id, change.name, clients);
      if (change.agentUpdate !== undefined && !(await this.repo.setAgentUpdate(id, change.agentUpdate))) throw notFound();
      return this.get(id, clients);
    });
  }

  /** Refused while agents belong to the client: their records would lose their tenant. */
  async deleteClient(id: number, clients: ClientScope): Promise<void> {
    if (!inScope(clients, id) || !(await this.repo.findClient(id))) throw notFound();
    const agents = await this.repo.countAgents({ clientId: id });
    if (agents > 0) throw new DomainError(ClientsErrorCode.ClientHasAgents, `client ${id} still has ${agents} agent(s): delete or move them first`);
    try {
      await this.repo.deleteClient(id);
    } catch (err) {
      if (isStillReferenced(err)) throw new DomainError(ClientsErrorCode.ClientHasAgents, `client ${id} still has agents`);
      throw err;
    }
  }

  async sitesOf(clientId: number, page: Page, clients: ClientScope): Promise<[SiteEntity[], number]> {
    if (!inScope(clients, clientId) || !(await this.repo.findClient(clientId))) throw notFound();
    const [rows, total] = await this.repo.listSites(clientId, page);
    return [await this.repo.withFields('site', rows), total];
  }

  async renameSite(clientId: number, siteId: number, name: string, clients: ClientScope): Promise<SiteEntity> {
    const field = 'name';
    const clean = requireName(name, field);
    const site = inScope(clients, clientId) ? await this.repo.findSite(siteId) : null;
    if (!site || site.clientId !== clientId) throw notFound();
    try {
      await this.repo.renameSite(siteId, clean);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(ClientsErrorCode.SiteNameTaken, `client ${clientId} already has a site named "${clean}"`, [{ field, message: 'already exists' }]);
      throw err;
    }
    return (await this.repo.withFields('site', [(await this.repo.findSite(siteId))!]))[0];
  }

  async deleteSite(clientId: number, siteId: number, clients: ClientScope): Promise<void> {
    const site = inScope(clients, clientId) ? await this.repo.findSite(siteId) : null;
    if (!site || site.clientId !== clientId) throw notFound();
    const agents = await this.repo.countAgents({ siteId });
    if (agents > 0) throw new DomainError(ClientsErrorCode.SiteHasAgents, `site ${siteId} still has ${agents} agent(s): delete or move them first`);
    try {
      await this.repo.deleteSite(siteId);
    } catch (err) {
      if (isStillReferenced(err)) throw new DomainError(ClientsErrorCode.SiteHasAgents, `site ${siteId} still has agents`);
      throw err;
    }
  }

  /** The client and site with these names, created when missing (the default tenant), in one transaction. */
  ensureClientAndSite(clientName: string, siteName: string): Promise<{ client: ClientEntity; site: SiteEntity }> {
    return this.tx.run(async () => {
      const client = (await this.repo.findClientByName(clientName)) ?? (await this.createClient(clientName));
      const site = (await this.repo.findSiteByName(client.id, siteName)) ?? (await this.createSite(client.id, siteName, EVERY_CLIENT));
      return { client, site };
    });
  }
}

/** A trimmed, non-empty name of at most 200 characters; errors name `field` (name, or site_name). */
function requireName(name: string, field: string): string {
  const clean = (name ?? '').trim();
  if (!clean) throw fieldInvalid(field, 'must not be empty', `${field} must not be empty`);
  if (clean.length > 200) throw fieldInvalid(field, 'at most 200 characters', `${field} is too long`);
  return clean;
}
