/** What the tasks module refuses (rmm-error.surface.ts gives each its status). */
export enum TasksErrorCode {
  /** A change through the per-agent API of a task a policy manages (409: use the agent's policy overrides). */
  ManagedByPolicy = 'task_managed_by_policy',
}
