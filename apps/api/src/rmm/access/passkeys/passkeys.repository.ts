import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../../database/transaction-host';

/** A stored passkey, as the service uses it (the public key as the authenticator gave it, COSE). */
export interface Passkey {
  id: string;
  operatorId: number;
  credentialId: string;
  publicKey: Buffer;
  counter: number;
  transports: string[];
  deviceType: string | null;
  backedUp: boolean;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export type NewPasskey = Pick<Passkey, 'operatorId' | 'credentialId' | 'publicKey' | 'counter' | 'transports' | 'deviceType' | 'backedUp' | 'name'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLUMNS = `id, operator_id AS "operatorId", credential_id AS "credentialId", public_key AS "publicKey", counter::float8 AS counter,
  transports, device_type AS "deviceType", backed_up AS "backedUp", name, created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

/** The `operator_passkeys` table. */
@Injectable()
export class PasskeysRepository {
  constructor(private readonly tx: TransactionHost) {}

  async insert(p: NewPasskey, now: Date): Promise<Passkey> {
    const [row] = await this.tx.rows<Passkey>(
      `INSERT INTO operator_passkeys (operator_id, credential_id, public_key, counter, transports, device_type, backed_up, name, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [p.operatorId, p.credentialId, p.publicKey, p.counter, p.transports, p.deviceType, p.backedUp, p.name, now],
    );
    return row;
  }

  listForOperator(operatorId: number): Promise<Passkey[]> {
    return this.tx.rows<Passkey>(`SELECT ${COLUMNS} FROM operator_passkeys WHERE operator_id = $1 ORDER BY created_at, id`, [operatorId]);
  }

  async hasAny(operatorId: number): Promise<boolean> {
    const rows = await this.tx.rows<{ one: number }>(`SELECT 1 AS one FROM operator_passkeys WHERE operator_id = $1 LIMIT 1`, [operatorId]);
    return rows.length > 0;
  }

  async findByCredentialId(credentialId: string): Promise<Passkey | null> {
    const [row] = await this.tx.rows<Passkey>(`SELECT ${COLUMNS} FROM operator_passkeys WHERE credential_id = $1`, [credentialId]);
    return row ?? null;
  }

  /** One of the operator's passkeys (another's, or an id that is not one, is not found). */
  async findOwn(id: string, operatorId: number): Promise<Passkey | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.tx.rows<Passkey>(`SELECT ${COLUMNS} FROM operator_passkeys WHERE id = $1 AND operator_id = $2`, [id, operatorId]);
    return row ?? null;
  }

  async rename(id: string, operatorId: number, name: string): Promise<Passkey | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.tx.rows<Passkey>(`UPDATE operator_passkeys SET name = $3 WHERE id = $1 AND operator_id = $2 RETURNING ${COLUMNS}`, [id, operatorId, name]);
    return row ?? null;
  }

  async delete(id: string, operatorId: number): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const { rowCount } = await this.tx.exec(`DELETE FROM operator_passkeys WHERE id = $1 AND operator_id = $2`, [id, operatorId]);
    return rowCount === 1;
  }

  /**
   * Notes a use with the authenticator's new counter, in one statement that also refuses one that did not increase
   * (both zero: an authenticator that keeps no counter): two sign-ins racing with one assertion cannot both pass.
   */
  async used(id: string, counter: number, at: Date): Promise<boolean> {
    const { rowCount } = await this.tx.exec(
      `UPDATE operator_passkeys SET counter = $2, last_used_at = $3 WHERE id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0))`,
      [id, counter, at],
    );
    return rowCount === 1;
  }
}
