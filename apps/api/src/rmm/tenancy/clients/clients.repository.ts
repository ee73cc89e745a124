import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { TransactionHost } from '../../../database/transaction-host';
import { AgentUpdateMode, ClientEntity, SiteEntity } from '@app/entities';
import { ClientScope } from '../../common/client-scope';
import { Page } from '../../common/pagination.dto';
import { customFieldsColumn } from '../custom-fields/custom-fields.sql';

@Injectable()
export class ClientsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get clients(): Repository<ClientEntity> {
    return this.tx.repo(ClientEntity);
  }

  private get sites(): Repository<SiteEntity> {
    return this.tx.repo(SiteEntity);
  }


  /** One page of clients (by id) with all their sites (by id), and the number of clients; `scope`: only those clients. */
  async listWithSites(page: Page, scope: ClientScope): Promise<[ClientEntity[], number]> {
    const q = this.clients.createQueryBuilder('c');
    if (scope !== null) q.where('c.id = ANY(:scope)', { scope: [...scope] });
    const [clients, total] = await q.orderBy('c.id', 'ASC').offset(page.offset).limit(page.limit).getManyAndCount();
    const sites = clients.length === 0 ? [] : await this.sites.find({ where: { clientId: In(clients.map((c) => c.id)) }, order: { id: 'ASC' } });
    for (const client of clients) client.sites = sites.filter((s) => s.clientId === client.id);
    return [clients, total];
  }

  /**
   * Fills in `customFields` of these clients or sites (docs/custom-fields.md: every field of the scope, the value,
   * else the default, else null; a secret masked), in one statement.
   */
  async withFields<T extends { id: number; customFields?: Record<string, unknown> }>(scope: 'client' | 'site', rows: T[]): Promise<T[]> {
    if (rows.length === 0) return rows;
    const found = await this.tx.rows<{ id: number; custom_fields: Record<string, unknown> }>(
      `SELECT o.id, ${customFieldsColumn(scope, 'o.id')} AS custom_fields FROM unnest($1::int[]) AS o(id)`,
      [rows.map((r) => r.id)],
    );
    const byId = new Map(found.map((f) => [f.id, f.custom_fields]));
    for (const row of rows) row.customFields = byId.get(row.id) ?? {};
    return rows;
  }

  /** Whether the client exists, and which client the site belongs to (null: no such site), in one statement. */
  async placeOf(clientId: number, siteId: number): Promise<{ clientExists: boolean; siteClientId: number | null }> {
    const [row] = await this.tx.rows<{ client: boolean; site_client: number | null }>(
      `SELECT EXISTS (SELECT 1 FROM clients WHERE id = $1) AS client, (SELECT client_id FROM sites WHERE id = $2) AS site_client`,
      [clientId, siteId],
    );
    return { clientExists: row.client, siteClientId: row.site_client };
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

  listSites(clientId: number, page: Page): Promise<[SiteEntity[], number]> {
    return this.sites.findAndCount({ where: { clientId }, order: { id: 'ASC' }, skip: page.offset, take: page.limit });
  }

  findClientWithSites(id: number): Promise<ClientEntity | null> {
    return this.clients.findOne({ where: { id }, relations: { sites: true }, order: { sites: { id: 'ASC' } } });
  }

  async renameClient(id: number, name: string): Promise<boolean> {
    return ((await this.clients.update({ id }, { name })).affected ?? 0) > 0;
  }

  /** Sets agent_update; `off` also drops the client's pending agent updates. False when there is no such client. */
  async setAgentUpdate(id: number, mode: AgentUpdateMode): Promise<boolean> {
    const found = ((await this.clients.update({ id }, { agentUpdate: mode })).affected ?? 0) > 0;
    if (found && mode === 'off') {
      await this.tx.exec(`DELETE FROM agent_updates u USING agents a WHERE a.id = u.agent_id AND a.client_id = $1 AND u.status = 'pending'`, [id]);
    }
    return found;
  }

  async renameSite(id: number, name: string): Promise<void> {
    await this.sites.update({ id }, { name });
  }

  async countAgents(where: { clientId?: number; siteId?: number }): Promise<number> {
    const [{ n }] = where.siteId !== undefined
      ? await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM agents WHERE site_id = $1`, [where.siteId])
      : await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM agents WHERE client_id = $1`, [where.clientId]);
    return n;
  }

  async deleteClient(id: number): Promise<void> {
    await this.clients.delete({ id });
  }

  async deleteSite(id: number): Promise<void> {
    await this.sites.delete({ id });
  }

  insertClient(name: string): Promise<ClientEntity> {
    return this.clients.save(this.clients.create({ name }));
  }

  insertSite(clientId: number, name: string): Promise<SiteEntity> {
    return this.sites.save(this.sites.create({ clientId, name }));
  }
}
