import type { CustomFieldScope } from '@app/entities';
import { SECRET_MASK } from './custom-field-rules';

const OWNER_COLUMN: Record<CustomFieldScope, string> = { agent: 'agent_id', site: 'site_id', client: 'client_id' };

/** The values' column that names an owner of this scope. */
export const ownerColumn = (scope: CustomFieldScope): string => OWNER_COLUMN[scope];

/**
 * An SQL expression for the `custom_fields` object of one agent, site or client (`owner`: the SQL of its id, e.g.
 * `a.id`): every field of the scope by name, its own value, else the field's default, else null; a secret's value
 * never (the mask when set, null when not). Two parts: the scope's defaults, an uncorrelated subquery PostgreSQL
 * computes once per statement (an InitPlan), overlaid (`||`) with the owner's own values, one range scan of
 * UQ_custom_field_values_* per owner (nothing to read for an owner without values), rather than one lookup per field
 * and owner. Measured on 20,000 agents with 5 fields set on each (a shared, loaded machine): about 0.3 s for the whole
 * list against 0.08 s without the column; with no field defined, no measurable cost. Used by the agents' list and detail (agents.sql.ts), the events' agent.updated, and
 * the clients' and sites' reads, so they answer alike.
 */
export function customFieldsColumn(scope: CustomFieldScope, owner: string): string {
  return `((SELECT COALESCE(jsonb_object_agg(d.name, CASE WHEN d.type = 'secret' THEN 'null'::jsonb ELSE COALESCE(d.default_value, 'null'::jsonb) END), '{}'::jsonb)
            FROM custom_fields d WHERE d.scope = '${scope}')
        || COALESCE((SELECT jsonb_object_agg(f.name, CASE WHEN f.type = 'secret' THEN to_jsonb('${SECRET_MASK}'::text) ELSE v.value END)
            FROM custom_field_values v JOIN custom_fields f ON f.id = v.field_id WHERE v.${OWNER_COLUMN[scope]} = ${owner}), '{}'::jsonb))`;
}
