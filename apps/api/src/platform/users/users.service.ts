import { Injectable } from '@nestjs/common';
import { UserEntity, UserProfileEntity } from '@app/entities';
import { DomainError, ErrorKind, invalid } from '../../common/errors/domain-error';
import { isUniqueViolation } from '../../database/pg-errors';
import { hashPassword } from './password';
import { UsersRepository } from './users.repository';

export interface NewUser {
  email: string;
  password: string;
  clientId?: number | null;
  siteId?: number | null;
}

@Injectable()
export class UsersService {
  constructor(private readonly users: UsersRepository) {}

  /** Creates a data-platform user with a profile row (tenant ids may be null: defaults apply). */
  async create(input: NewUser): Promise<{ user: UserEntity; profile: UserProfileEntity }> {
    const email = normaliseEmail(input.email);
    if (typeof input.password !== 'string' || input.password.length < 6) {
      throw invalid('Password should be at least 6 characters.', [{ field: 'password', message: 'at least 6 characters' }]);
    }
    try {
      return await this.users.createWithProfile(
        { email, encryptedPassword: await hashPassword(input.password) },
        { rmmClientId: input.clientId ?? null, rmmSiteId: input.siteId ?? null },
      );
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new DomainError(ErrorKind.Conflict, 'A user with this email address has already been registered', [], 422);
      }
      throw err;
    }
  }
}

export function normaliseEmail(email: unknown): string {
  const clean = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+$/.test(clean)) {
    throw invalid('Unable to validate email address: invalid format', [{ field: 'email', message: 'invalid format' }]);
  }
  return clean;
}
