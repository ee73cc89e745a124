/** What the checks module refuses (rmm-error.surface.ts gives each its status). */
export enum ChecksErrorCode {
  /** A change through the per-agent API of a check a policy manages (409: use the agent's policy overrides). */
  ManagedByPolicy = 'check_managed_by_policy',
}
