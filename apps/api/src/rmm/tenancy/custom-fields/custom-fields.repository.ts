import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { CustomFieldEntity, CustomFieldScope, CustomFieldValue } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import { Page } from '../../common/pagination.dto';
import { customFieldsColumn, ownerColumn } from './custom-fields.sql';

/** The key of the advisory lock under which fields are counted and created (MAX_CUSTOM_FIELDS holds with requests at once). */
const FIELDS_LOCK = 0x43464c44; // 'CFLD'

/** What a script's placeholders may read of one agent: its hostname, its site's and client's names and ids. */
export interface AgentPlace {
  hostname: string;
  siteId: number | null;
  siteName: string | null;
  clientId: number | null;
  clientName: string | null;
}

/** A field's value as stored, with what the rules need of its field. */
export interface StoredValue {
  fieldId: number;
  name: string;
  type: CustomFieldEntity['type'];
  value: CustomFieldValue | null;
  defaultValue: CustomFieldValue | null;
}

@Injectable()
export class CustomFieldsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get fields(): Repository<CustomFieldEntity> {
    return this.tx.repo(CustomFieldEntity);
  }

  /** One page of definitions by (scope, name), of the given scopes only; and their number. */
  list(scopes: readonly CustomFieldScope[], page: Page): Promise<[CustomFieldEntity[], number]> {
    const q = this.fields.createQueryBuilder('f').where('f.scope = ANY(:scopes)', { scopes: [...scopes] });
    q.orderBy('f.scope', 'ASC').addOrderBy('f.name', 'ASC').addOrderBy('f.id', 'ASC').skip(page.offset);
    if (page.limit !== undefined) q.take(page.limit);
    return q.getManyAndCount();
  }

  ofScope(scope: CustomFieldScope): Promise<CustomFieldEntity[]> {
    return this.fields.find({ where: { scope }, order: { name: 'ASC' } });
  }

  findById(id: number): Promise<CustomFieldEntity | null> {
    return this.fields.findOneBy({ id });
  }

  /** Takes the fields' lock (inside a transaction) and counts them. */
  async lockAndCount(): Promise<number> {
    await this.tx.rows(`SELECT pg_advisory_xact_lock($1)`, [FIELDS_LOCK]);
    const [{ n }] = await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM custom_fields`);
    return n;
  }

  insert(field: Omit<CustomFieldEntity, 'id' | 'createdAt' | 'updatedAt'>): Promise<CustomFieldEntity> {
    return this.fields.save(this.fields.create(field));
  }

  async update(id: number, change: Partial<Pick<CustomFieldEntity, 'name' | 'label' | 'scope' | 'type' | 'options' | 'defaultValue' | 'required'>>): Promise<void> {
    await this.fields.update({ id }, change);
  }

  async delete(id: number): Promise<boolean> {
    return ((await this.fields.delete({ id })).affected ?? 0) > 0;
  }

  async countValues(fieldId: number): Promise<number> {
    const [{ n }] = await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM custom_field_values WHERE field_id = $1`, [fieldId]);
    return n;
  }

  /** Of these options, those some value of the field holds (a select's value, or in a multiselect's list). */
  async optionsInUse(fieldId: number, options: readonly string[]): Promise<string[]> {
    if (options.length === 0) return [];
    const rows = await this.tx.rows<{ o: string }>(
      `SELECT o FROM unnest($2::text[]) o WHERE EXISTS (SELECT 1 FROM custom_field_values v WHERE v.field_id = $1 AND v.value ? o) ORDER BY o`,
      [fieldId, [...options]],
    );
    return rows.map((r) => r.o);
  }

  /** The client of an agent (undefined: no such agent; null: an agent without a client). */
  async agentClient(agentId: number): Promise<number | null | undefined> {
    const [row] = await this.tx.rows<{ client_id: number | null }>(`SELECT client_id FROM agents WHERE id = $1`, [agentId]);
    return row ? row.client_id : undefined;
  }

  async clientExists(clientId: number): Promise<boolean> {
    const [row] = await this.tx.rows<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM clients WHERE id = $1) AS found`, [clientId]);
    return row.found;
  }

  async siteOfClient(clientId: number, siteId: number): Promise<boolean> {
    const [row] = await this.tx.rows<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM sites WHERE id = $1 AND client_id = $2) AS found`, [siteId, clientId]);
    return row.found;
  }

  /** Every field of the scope with the owner's stored value (null when it has none). */
  async stored(scope: CustomFieldScope, ownerId: number): Promise<StoredValue[]> {
    const rows = await this.tx.rows<{ field_id: number; name: string; type: CustomFieldEntity['type']; value: CustomFieldValue | null; default_value: CustomFieldValue | null }>(
      `SELECT f.id AS field_id, f.name, f.type, v.value, f.default_value
         FROM custom_fields f LEFT JOIN custom_field_values v ON v.field_id = f.id AND v.${ownerColumn(scope)} = $2
        WHERE f.scope = $1 ORDER BY f.name`,
      [scope, ownerId],
    );
    return rows.map((r) => ({ fieldId: r.field_id, name: r.name, type: r.type, value: r.value, defaultValue: r.default_value }));
  }

  /** Sets the owner's value of a field (one statement: insert, or replace the one there). */
  async setValue(scope: CustomFieldScope, ownerId: number, fieldId: number, value: CustomFieldValue): Promise<void> {
    const col = ownerColumn(scope);
    await this.tx.exec(
      `INSERT INTO custom_field_values (field_id, ${col}, value) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (${col}, field_id) WHERE ${col} IS NOT NULL DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [fieldId, ownerId, JSON.stringify(value)],
    );
  }

  async clearValue(scope: CustomFieldScope, ownerId: number, fieldId: number): Promise<void> {
    await this.tx.exec(`DELETE FROM custom_field_values WHERE field_id = $1 AND ${ownerColumn(scope)} = $2`, [fieldId, ownerId]);
  }

  /** The `custom_fields` objects of these owners, as reads answer them (customFieldsColumn), by owner id. */
  async shownOf(scope: CustomFieldScope, ownerIds: readonly number[]): Promise<Map<number, Record<string, unknown>>> {
    if (ownerIds.length === 0) return new Map();
    const rows = await this.tx.rows<{ id: number; custom_fields: Record<string, unknown> }>(
      `SELECT o.id, ${customFieldsColumn(scope, 'o.id')} AS custom_fields FROM unnest($1::int[]) AS o(id)`,
      [[...ownerIds]],
    );
    return new Map(rows.map((r) => [r.id, r.custom_fields]));
  }

  /** What placeholders read of an agent (null: no such agent). */
  async agentPlace(agentId: number): Promise<AgentPlace | null> {
    const [row] = await this.tx.rows<{ hostname: string; site_id: number | null; site_name: string | null; client_id: number | null; client_name: string | null }>(
      `SELECT a.hostname, a.site_id, s.name AS site_name, a.client_id, c.name AS client_name
         FROM agents a LEFT JOIN clients c ON c.id = a.client_id LEFT JOIN sites s ON s.id = a.site_id AND s.client_id = a.client_id
        WHERE a.id = $1`,
      [agentId],
    );
    return row ? { hostname: row.hostname, siteId: row.site_id, siteName: row.site_name, clientId: row.client_id, clientName: row.client_name } : null;
  }
}
