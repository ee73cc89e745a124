/** What the management backend's guard refuses besides the common codes (rmm-error.surface.ts gives each its status). */
export enum GuardErrorCode {
  /** 403 {detail: 'CSRF check failed'}: a cookie-authenticated change without X-Requested-With: rmm-console. */
  CsrfFailed = 'csrf_failed',
  /** 401 {detail: 're-authentication required', step_up: true}: the session authenticated too long ago for this action (docs/sso.md). */
  StepUpRequired = 'step_up_required',
}
