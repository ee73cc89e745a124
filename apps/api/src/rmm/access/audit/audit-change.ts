import type { AuthedRequest } from '../../common/principal';
import { routeAction, requestedPath } from './audit-entry';
import type { AuditEntry } from './audit-entry';

/** Who made a change and through which request: what a change row of the audit log names. */
export interface ChangeActor {
  kind: 'api_key' | 'operator' | 'anonymous';
  id: string | null;
  name: string | null;
  method: string;
  /** The request's action (`PATCH /api/v3/agents/{agentId}/`). */
  action: string;
  address: string | null;
  requestId: string;
}

/** The actor of a request the guard admitted (controllers pass it to services that audit what they change). */
export function changeActor(req: AuthedRequest): ChangeActor {
  const p = req.principal;
  return {
    kind: p ? p.kind : 'anonymous',
    id: p ? String(p.id) : null,
    name: p ? p.name : null,
    method: req.method,
    action: routeAction(req.method, req.routeOptions.url ?? requestedPath(req.url)),
    address: req.ip ?? null,
    requestId: String(req.id),
  };
}

/** What changed on one resource: its fields before and after (only the fields that changed). */
export interface AuditedChange {
  /** The resource's path (`/api/v3/agents/42/`): the row's target. */
  target: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/**
 * A change row of the audit log: one per resource a request changed (a bulk edit of 40 agents writes 40), beside
 * the request's own row. `changes` carries `{before, after}` (the column policies' rows use too); `outcome` is
 * `changed` and `status` null, which tell it from a request's row.
 */
export function changeEntry(actor: ChangeActor, change: AuditedChange, at: Date): AuditEntry {
  return {
    at,
    actorKind: actor.kind,
    actorId: actor.id,
    actorName: actor.name,
    method: actor.method,
    action: actor.action,
    target: change.target,
    clientAddress: actor.address,
    status: null,
    outcome: 'changed',
    changes: { before: change.before, after: change.after },
    requestId: actor.requestId,
  };
}
