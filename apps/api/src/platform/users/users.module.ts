import { Module } from '@nestjs/common';
import { PasswordHasher } from './password';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  providers: [UsersRepository, UsersService, PasswordHasher],
  exports: [UsersService, UsersRepository, PasswordHasher],
})
export class UsersModule {}
