/** What the policies module refuses (rmm-error.surface.ts gives each its status). */
export enum PoliciesErrorCode {
  NameTaken = 'policy_name_taken',
  TooMany = 'policy_limit_reached',
}
