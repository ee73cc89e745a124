import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { UserEntity, UserProfileEntity } from '@app/entities';

@Injectable()
export class UsersRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The user and their profile row, in one transaction. */
  createWithProfile(
    user: Pick<UserEntity, 'email' | 'encryptedPassword'>,
    profile: Pick<UserProfileEntity, 'rmmClientId' | 'rmmSiteId'>,
  ): Promise<{ user: UserEntity; profile: UserProfileEntity }> {
    return this.ds.transaction(async (em) => {
      const saved = await em.getRepository(UserEntity).save(em.getRepository(UserEntity).create(user));
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
}
