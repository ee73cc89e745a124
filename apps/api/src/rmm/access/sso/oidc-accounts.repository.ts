import { Injectable } from '@nestjs/common';
import { OperatorEntity, OperatorRole } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';

/**
 * The operators table's provider-account side: an operator is found by (issuer, sub), linked once (only when an
 * admin allowed it: oidc_link_allowed), made just in time, and given the role and clients of their groups.
 */
@Injectable()
export class OidcAccountsRepository {
  constructor(private readonly tx: TransactionHost) {}

  findBySubject(issuer: string, subject: string): Promise<OperatorEntity | null> {
    return this.tx.repo(OperatorEntity).findOneBy({ oidcIssuer: issuer, oidcSubject: subject });
  }

  findByEmail(email: string): Promise<OperatorEntity | null> {
    return this.tx.repo(OperatorEntity).findOneBy({ email });
  }

  /** A new operator without a password, linked to this provider account (a unique violation if another sign-in won). */
  async create(o: { email: string; issuer: string; subject: string; role: OperatorRole; clients: number[] | null }): Promise<OperatorEntity> {
    const repo = this.tx.repo(OperatorEntity);
    return repo.save(repo.create({ email: o.email, passwordHash: null, role: o.role, clients: o.clients, oidcIssuer: o.issuer, oidcSubject: o.subject }));
  }

  /** Links the account to the operator, once: only while an admin's permission stands and no account is linked (one statement). */
  async link(operatorId: number, issuer: string, subject: string): Promise<boolean> {
    const { rowCount } = await this.tx.exec(
      `UPDATE operators SET oidc_issuer = $2, oidc_subject = $3, oidc_link_allowed = false WHERE id = $1 AND oidc_link_allowed AND oidc_subject IS NULL`,
      [operatorId, issuer, subject],
    );
    return rowCount === 1;
  }

  /** The role and clients the groups give now (re-applied at every sign-in). */
  async applyMapping(operatorId: number, role: OperatorRole, clients: number[] | null): Promise<void> {
    await this.tx.exec(`UPDATE operators SET role = $2, clients = $3 WHERE id = $1`, [operatorId, role, clients]);
  }

  /** The clients among these that exist (a client-map group naming a deleted client gives nothing of it). */
  async existingClients(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.tx.rows<{ id: number }>(`SELECT id FROM clients WHERE id = ANY($1::int[]) ORDER BY id`, [ids]);
    return rows.map((r) => r.id);
  }
}
