/** What operators and console sessions refuse (rmm-error.surface.ts gives each its status). */
export enum OperatorsErrorCode {
  /** 401 {detail: 'Invalid credentials'}: a wrong email, password or code, a disabled operator. */
  InvalidCredentials = 'invalid_credentials',
  /** 401 {detail: 'Invalid credentials', totp_required: true}: the password was right; the account needs its code. */
  TotpRequired = 'totp_required',
  /** 401 {detail: 'Invalid credentials', passkey_required: true, passkey_options, challenge_id}: the password was right; the account has passkeys (second-factor.ts). */
  PasskeyRequired = 'passkey_required',
  /** 403: RMM_PASSWORD_LOGIN=false and the operator is not break-glass (docs/sso.md). */
  PasswordLoginOff = 'password_login_off',

  /** 409: re-authentication with a password for an operator who has none (signs in with a passkey or the provider). */
  NoPassword = 'operator_no_password',
  /** 409: another operator has this email. */
  EmailTaken = 'operator_email_taken',
}
