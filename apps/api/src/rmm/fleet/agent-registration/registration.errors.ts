/** What registering an agent can refuse (rmm-error.surface.ts gives each its status). */
export enum RegistrationErrorCode {
  /** No deployment has this enrollment token. */
  UnknownDeployment = 'registration_unknown_deployment',
  DeploymentRevoked = 'registration_deployment_revoked',
  DeploymentExpired = 'registration_deployment_expired',
  /** The deployment's max_registrations are spent. */
  DeploymentUsedUp = 'registration_deployment_used_up',
  /** The hostname has an agent in the client and the request did not prove it is that device. */
  HostnameEnrolled = 'registration_hostname_enrolled',
}
