import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { UserEntity, UserProfileEntity } from '@app/entities';

export type NewUserRow = Pick<UserEntity, 'email' | 'encryptedPassword'> & Partial<Pick<UserEntity, 'emailConfirmedAt' | 'rawUserMetaData'>>;

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The user and, unless `profile` is null, their profile row, in one transaction. */
  create(
    user: NewUserRow,
    profile: Pick<UserProfileEntity, 'rmmClientId' | 'rmmSiteId'> | null,
  ): Promise<{ user: UserEntity; profile: UserProfileEntity | null }> {
    return this.ds.transaction(async (em) => {
      const saved = await em.getRepository(UserEntity).save(em.getRepository(UserEntity).create({ rawUserMetaData: {}, ...user }));
      if (!profile) return { user: saved, profile: null };
      const prof = await em
        .getRepository(UserProfileEntity)
        .save(em.getRepository(UserProfileEntity).create({ id: saved.id, ...profile, rmmAgentId: null }));
      return { user: saved, profile: prof };
    });
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.ds.getRepository(UserEntity).findOneBy({ email });
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.ds.getRepository(UserEntity).findOneBy({ id });
  }

  /** A page of users, oldest first, and the total. */
  list(page: number, perPage: number): Promise<[UserEntity[], number]> {
    return this.ds.getRepository(UserEntity).findAndCount({ order: { createdAt: 'ASC', id: 'ASC' }, skip: (page - 1) * perPage, take: perPage });
  }

  /** Deletes the user; their profile, sessions and enrollment rows go with them (ON DELETE CASCADE). */
  async delete(id: string): Promise<boolean> {
    const res = await this.ds.getRepository(UserEntity).delete({ id });
    return (res.affected ?? 0) > 0;
  }
}
