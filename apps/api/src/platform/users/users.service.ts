import { Injectable } from '@nestjs/common';
import { UserEntity, UserProfileEntity } from '@app/entities';
import { CommonErrorCode, DomainError } from '../../common/errors/domain-error';
import { isUniqueViolation } from '../../database/pg-errors';
import { MAX_PASSWORD_LENGTH, PasswordHasher } from './password';
import { UsersErrorCode } from './users.errors';
import { UsersRepository } from './users.repository';

export interface NewUser {
  email: string;
  password: string;
  clientId?: number | null;
  siteId?: number | null;
  /** false: no user_profiles row (GoTrue's admin API; the profile is written through /rest/v1). Default true. */
  withProfile?: boolean;
  emailConfirmed?: boolean;
  metadata?: Record<string, unknown>;
}

export const MIN_PASSWORD_LENGTH = 6;
/** RFC 5321's limit on a whole address (a path of 256 octets, less the angle brackets). */
export const MAX_EMAIL_LENGTH = 254;
export const PASSWORD_TOO_LONG_MESSAGE = `Password cannot be longer than ${MAX_PASSWORD_LENGTH} characters`;
export const WEAK_PASSWORD_MESSAGE = `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`;
export const EMAIL_EXISTS_MESSAGE = 'A user with this email address has already been registered';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Creates a data-platform user, by default with a profile row (tenant ids may be null: defaults apply). */
  async create(input: NewUser): Promise<{ user: UserEntity; profile: UserProfileEntity | null }> {
    const email = normaliseEmail(input.email);
    if (typeof input.password !== 'string' || input.password.length < MIN_PASSWORD_LENGTH) {
      throw new DomainError(UsersErrorCode.WeakPassword, WEAK_PASSWORD_MESSAGE, [{ field: 'password', message: `at least ${MIN_PASSWORD_LENGTH} characters` }]);
    }
    if (input.password.length > MAX_PASSWORD_LENGTH) {
      throw new DomainError(CommonErrorCode.Validation, PASSWORD_TOO_LONG_MESSAGE, [{ field: 'password', message: `at most ${MAX_PASSWORD_LENGTH} characters` }]);
    }
    const profile = input.withProfile === false ? null : { rmmClientId: input.clientId ?? null, rmmSiteId: input.siteId ?? null };
    try {
      return await this.users.create(
        {
          email,
          encryptedPassword: await this.hasher.hash(input.password),
          emailConfirmedAt: input.emailConfirmed === false ? null : new Date(),
          rawUserMetaData: input.metadata ?? {},
        },
        profile,
      );
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(UsersErrorCode.EmailTaken, EMAIL_EXISTS_MESSAGE, [{ field: 'email', message: 'already registered' }]);
      throw err;
    }
  }
}

export function normaliseEmail(email: unknown): string {
  const clean = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (clean.length > MAX_EMAIL_LENGTH) {
    throw new DomainError(UsersErrorCode.InvalidEmail, `Unable to validate email address: longer than ${MAX_EMAIL_LENGTH} characters`, [
      { field: 'email', message: `at most ${MAX_EMAIL_LENGTH} characters` },
    ]);
  }
  if (!/^[^\s@]+@[^\s@]+$/.test(clean)) {
    throw new DomainError(UsersErrorCode.InvalidEmail, 'Unable to validate email address: invalid format', [{ field: 'email', message: 'invalid format' }]);
  }
  return clean;
}
