/**
 * The agent endpoints' SQL, in one place: one query with the client and site join, rows mapped straight to
 * the DTOs (no entity hydration). bench/baseline-server.js runs these very statements.
 */
import { customFieldsColumn } from '../../tenancy/custom-fields/custom-fields.sql';

/** The columns of an agent row as the queries below return them. */
export interface AgentRow {
  id: number;
  hostname: string;
  client_id: number | null;
  client_name: string | null;
  site_id: number | null;
  site_name: string | null;
  plat: string;
  monitoring_type: string;
  operating_system: string | null;
  version: string;
  last_seen: Date | null;
  status: string;
  logged_in_username: string | null;
  public_ip: string | null;
  local_ip: string | null;
  cpu_model: string | null;
  total_ram: number | null;
  disks: unknown;
  tags: string[];
  /** agents.maintenance OR maintenance_until > now(): in maintenance now. */
  in_maintenance: boolean;
  /** The end of the window the agent is in now; null when in none (past ends read as null). */
  maintenance_until: Date | null;
  /** Every agent field by name (docs/custom-fields.md): the value, else the default, else null; a secret masked. */
  custom_fields: Record<string, unknown>;
  patches_pending: number;
  wmi_detail: Record<string, unknown> | null;
  deployment_id: number | null;
  os_hostname: string | null;
  check_results_dropped: string;
  created_at: Date;
  updated_at: Date;
}

const LIST_COLUMNS = `a.id, a.hostname, a.client_id, c.name AS client_name, a.site_id, s.name AS site_name, a.plat, a.monitoring_type,
  a.operating_system, a.version, a.last_seen, a.status, a.logged_in_username, a.public_ip, a.local_ip, a.cpu_model, a.total_ram, a.disks,
  a.tags, (a.maintenance OR COALESCE(a.maintenance_until > now(), false)) AS in_maintenance,
  CASE WHEN a.maintenance_until > now() THEN a.maintenance_until END AS maintenance_until,
  ${customFieldsColumn('agent', 'a.id')} AS custom_fields`;
const DETAIL_COLUMNS = `${LIST_COLUMNS}, a.patches_pending, a.wmi_detail, a.deployment_id, a.os_hostname, a.check_results_dropped::text AS check_results_dropped, a.created_at, a.updated_at`;
const FROM = `agents a LEFT JOIN clients c ON c.id = a.client_id LEFT JOIN sites s ON s.client_id = a.client_id AND s.id = a.site_id`;

export const AGENT_DETAIL_SQL = `SELECT ${DETAIL_COLUMNS} FROM ${FROM} WHERE a.id = $1`;
/** The same rows for several agents at once (the events WebSockets' agent.updated, read in batches). */
export const AGENT_DETAILS_SQL = `SELECT ${DETAIL_COLUMNS} FROM ${FROM} WHERE a.id = ANY($1::int[])`;
/** AGENT_DETAIL_SQL for a client-limited caller ($2: its clients): another client's agent is not found. */
export const AGENT_DETAIL_IN_CLIENTS_SQL = `${AGENT_DETAIL_SQL} AND a.client_id = ANY($2::int[])`;

/**
 * Whether the agent exists for the caller ($2: its clients, or null for every client); deletes it likewise.
 * (Unnamed statements are planned with their values, so `$2 IS NULL` costs nothing.)
 */
export const AGENT_EXISTS_SQL = `SELECT EXISTS (SELECT 1 FROM agents a WHERE a.id = $1 AND ($2::int[] IS NULL OR a.client_id = ANY($2::int[]))) AS found`;
export const AGENT_DELETE_SQL = `DELETE FROM agents a WHERE a.id = $1 AND ($2::int[] IS NULL OR a.client_id = ANY($2::int[]))`;

export interface AgentListFilter {
  hostname?: string;
  clientId?: number;
  siteId?: number;
  monitoringType?: string;
  /** Agents carrying every one of these tags (normalised: lowercase); `tags @> $n` uses IDX_agents_tags (GIN). */
  tags?: readonly string[];
  /** Only agents of these clients (a client-limited caller); absent or null: every agent. */
  clients?: readonly number[] | null;
}

export interface Sql {
  text: string;
  values: unknown[];
}

function where(f: AgentListFilter, values: unknown[]): string[] {
  const conds: string[] = [];
  if (f.hostname !== undefined) conds.push(`a.hostname = $${values.push(f.hostname)}`);
  if (f.clientId !== undefined) conds.push(`a.client_id = $${values.push(f.clientId)}`);
  if (f.siteId !== undefined) conds.push(`a.site_id = $${values.push(f.siteId)}`);
  if (f.monitoringType !== undefined) conds.push(`a.monitoring_type = $${values.push(f.monitoringType)}`);
  if (f.tags !== undefined && f.tags.length > 0) conds.push(`a.tags @> $${values.push(f.tags)}::text[]`);
  if (f.clients !== undefined && f.clients !== null) conds.push(`a.client_id = ANY($${values.push(f.clients)}::int[])`);
  return conds;
}

/** A page by offset (limit/offset given), ordered by id. */
export function agentPageSql(f: AgentListFilter, limit: number | undefined, offset: number): Sql {
  const values: unknown[] = [];
  const conds = where(f, values);
  let text = `SELECT ${LIST_COLUMNS} FROM ${FROM}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ORDER BY a.id`;
  if (limit !== undefined) text += ` LIMIT $${values.push(limit)}`;
  if (offset > 0) text += ` OFFSET $${values.push(offset)}`;
  return { text, values };
}

/** One batch of the full list by keyset (ids after `afterId`), ordered by id: how the unpaged list streams. */
export function agentBatchSql(f: AgentListFilter, afterId: number, batch: number): Sql {
  const values: unknown[] = [];
  const conds = where(f, values);
  if (afterId > 0) conds.push(`a.id > $${values.push(afterId)}`);
  const text = `SELECT ${LIST_COLUMNS} FROM ${FROM}${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''} ORDER BY a.id LIMIT $${values.push(batch)}`;
  return { text, values };
}

/** The number of agents the filter matches (X-Total-Count of a paged list). */
export function agentCountSql(f: AgentListFilter): Sql {
  const values: unknown[] = [];
  const conds = where(f, values);
  return { text: `SELECT count(*)::int AS n FROM agents a${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''}`, values };
}

/** Rows per batch of the unpaged list; a list shorter than this is answered in one piece, as before. */
export const AGENT_STREAM_BATCH = 1000;

/**
 * An agent's changeable fields, locked for the change ($2: the caller's clients, or null): PATCH reads them
 * before and writes after, in one transaction.
 */
export const AGENT_LOCK_FOR_CHANGE_SQL = `SELECT a.id, a.tags, a.monitoring_type, a.maintenance FROM agents a
  WHERE a.id = $1 AND ($2::int[] IS NULL OR a.client_id = ANY($2::int[])) FOR UPDATE`;

/** Writes the changeable fields ($2 tags, $3 monitoring_type, $4 maintenance: each null to keep it). */
export const AGENT_CHANGE_SQL = `UPDATE agents SET tags = COALESCE($2::text[], tags), monitoring_type = COALESCE($3, monitoring_type),
  maintenance = COALESCE($4, maintenance), updated_at = now() WHERE id = $1`;

/** Which of these agents exist for the caller ($2: its clients, or null). */
export const AGENTS_FOUND_SQL = `SELECT a.id FROM agents a WHERE a.id = ANY($1::int[]) AND ($2::int[] IS NULL OR a.client_id = ANY($2::int[]))`;

/**
 * The bulk tag edit, one statement for any number of agents: each agent's tags become (tags ∪ $2) ∖ $3, sorted;
 * only agents whose tags change are written (rows locked in id order, as every multi-agent write here). Answers the
 * changed agents with their tags before and after.
 */
export const AGENTS_RETAG_SQL = `WITH target AS MATERIALIZED (
    SELECT a.id, a.tags FROM agents a WHERE a.id = ANY($1::int[]) AND ($4::int[] IS NULL OR a.client_id = ANY($4::int[])) ORDER BY a.id FOR UPDATE),
  calc AS (
    SELECT t.id, t.tags AS before,
           ARRAY(SELECT x FROM unnest(t.tags || $2::text[]) x WHERE NOT (x = ANY($3::text[])) GROUP BY x ORDER BY x COLLATE "C")::text[] AS after
      FROM target t),
  changed AS (
    UPDATE agents a SET tags = c.after, updated_at = now() FROM calc c WHERE a.id = c.id AND a.tags IS DISTINCT FROM c.after RETURNING a.id)
  SELECT c.id, c.before, c.after FROM calc c JOIN changed USING (id) ORDER BY c.id`;
