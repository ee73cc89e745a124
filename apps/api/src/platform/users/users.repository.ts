import { Injectable } from '@nestjs/common';
import { UserEntity, UserProfileEntity } from '@app/entities';
import { TransactionHost } from '../../database/transaction-host';

export type NewUserRow = Pick<UserEntity, 'email' | 'encryptedPassword'> & Partial<Pick<UserEntity, 'emailConfirmedAt' | 'rawUserMetaData'>>;

@Injectable()
export class UsersRepository {
  constructor(private readonly tx: TransactionHost) {}

  /** The user and, unless `profile` is null, their profile row, in one transaction. */
  create(
    user: NewUserRow,
    profile: Pick<UserProfileEntity, 'rmmClientId' | 'rmmSiteId'> | null,
  ): Promise<{ user: UserEntity; profile: UserProfileEntity | null }> {
    return this.tx.run(async () => {
      const users = this.tx.repo(UserEntity);
      const saved = await users.save(users.create({ rawUserMetaData: {}, ...user }));
      if (!profile) return { user: saved, profile: null };
      const profiles = this.tx.repo(UserProfileEntity);
      const prof = await profiles.save(profiles.create({ id: saved.id, ...profile, rmmAgentId: null }));
      return { user: saved, profile: prof };
    });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.tx.repo(UserEntity).findOneBy({ email });
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.tx.repo(UserEntity).findOneBy({ id });
  }

  /** A page of users, oldest first, and the total. */
  list(page: number, perPage: number): Promise<[UserEntity[], number]> {
    return this.tx.repo(UserEntity).findAndCount({ order: { createdAt: 'ASC', id: 'ASC' }, skip: (page - 1) * perPage, take: perPage });
  }

  /** Deletes the user; their profile and sessions go with them (ON DELETE CASCADE); their enrollment_log rows stay (the audit trail). */
  async delete(id: string): Promise<boolean> {
    const res = await this.tx.repo(UserEntity).delete({ id });
    return (res.affected ?? 0) > 0;
  }
}
