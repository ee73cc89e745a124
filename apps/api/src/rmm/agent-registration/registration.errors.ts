/** What registering an agent can refuse (rmm-error.surface.ts gives each its status). */
export enum RegistrationErrorCode {
  /** No deployment has this enrollment token. */
  UnknownDeployment = 'registration_unknown_deployment',
  DeploymentRevoked = 'registration_deployment_revoked',
  DeploymentExpired = 'registration_deployment_expired',
}
