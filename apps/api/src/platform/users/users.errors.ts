/** What creating a data-platform user can refuse (each surface gives them their status). */
export enum UsersErrorCode {
  EmailTaken = 'email_taken',
  WeakPassword = 'weak_password',
  InvalidEmail = 'invalid_email',
}
