/**
 * SQL: agent `a` is in maintenance now: put there by an operator (agents.maintenance), or inside a policy
 * maintenance window (agents.maintenance_until, written by the window job, still ahead). While it is, its checks
 * and tasks run and record, but no alert opens and no notification is sent (docs/policies.md, "Maintenance").
 * Read by the statements that open alerts, write notifications and claim tasks, so the decision is taken where the
 * change is made.
 */
export const IN_MAINTENANCE = `(a.maintenance OR COALESCE(a.maintenance_until > now(), false))`;
