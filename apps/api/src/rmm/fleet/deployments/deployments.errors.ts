/** What the deployments module refuses (rmm-error.surface.ts gives each its status). */
export enum DeploymentsErrorCode {
  Revoked = 'deployment_revoked',
  Expired = 'deployment_expired',
  /** Its max_registrations are spent. */
  UsedUp = 'deployment_used_up',
}
