import type { CustomFieldScope } from '@app/entities';
import { SECRET_MASK } from './custom-field-rules';

const OWNER_COLUMN: Record<CustomFieldScope, string> = { agent: 'agent_id', site: 'site_id', client: 'client_id' };

/** The values' column that names an owner of this scope. */
export const ownerColumn = (scope: CustomFieldScope): string => OWNER_COLUMN[scope];

/**
 * An SQL expression for the `custom_fields` object of one agent, site or client (`owner`: the SQL of its id, e.g.
 * `a.id`): every field of the scope by name, its own value, else the field's default, else null; a secret's value
 * never (the mask when set, null when not). One index lookup per field (UQ_custom_field_values_*); `'{}'` when the
 * scope has no fields. Used by the agents' list and detail (agents.sql.ts), the events' agent.updated, and the
 * clients' and sites' reads, so they answer alike.
 */
export function customFieldsColumn(scope: CustomFieldScope, owner: string): string {
  return `(SELECT COALESCE(jsonb_object_agg(f.name,
            CASE WHEN f.type = 'secret' THEN CASE WHEN v.value IS NULL THEN 'null'::jsonb ELSE to_jsonb('${SECRET_MASK}'::text) END
                 ELSE COALESCE(v.value, f.default_value, 'null'::jsonb) END), '{}'::jsonb)
           FROM custom_fields f LEFT JOIN custom_field_values v ON v.field_id = f.id AND v.${OWNER_COLUMN[scope]} = ${owner}
          WHERE f.scope = '${scope}')`;
}
