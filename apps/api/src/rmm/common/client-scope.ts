import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { canSeeClient } from './principal';

/**
 * The clients a caller may see, as services and repositories take it (controllers pass
 * `clientFilter(req.principal)`): null = every client; a list = only the agents, checks, tasks, alerts, runs,
 * deployments, clients and sites of those clients. An agent without a client is outside every list. What a
 * caller may not see does not exist for it: 404 for one item, absent from lists and their totals, and named
 * "no such …" (400) when a body refers to it.
 */
export type ClientScope = readonly number[] | null;

/** The server's own reads (schedulers, sweeps, the events WebSocket's own checks): no limit. */
export const EVERY_CLIENT: ClientScope = null;

/** Whether a client is inside the scope (null: an agent without a client, visible only to an unlimited caller). */
export const inScope = (clients: ClientScope, clientId: number | null | undefined): boolean => canSeeClient({ clients }, clientId);

/**
 * Limits a query over a table whose rows belong to an agent (checks, tasks, alerts, script runs: an `agent`
 * relation) to the rows of agents in the scope's clients: an inner join to agents on `client_id = ANY($n)`.
 * An unlimited scope adds nothing, so those callers run the statement they always ran.
 */
export function ofAgentsInScope<T extends ObjectLiteral>(q: SelectQueryBuilder<T>, clients: ClientScope): SelectQueryBuilder<T> {
  if (clients === null) return q;
  return q.innerJoin(`${q.alias}.agent`, 'scope_agent', 'scope_agent.clientId = ANY(:scopeClients)', { scopeClients: [...clients] });
}
