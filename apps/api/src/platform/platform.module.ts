import { Module } from '@nestjs/common';
import { AccessTokens } from './auth/access-tokens';
import { PlatformApiKeyGuard } from './auth/api-key.guard';
import { AuthController } from './auth/auth.controller';
import { AuthService } from './auth/auth.service';
import { SessionsRepository } from './auth/sessions.repository';
import { PlatformCallers } from './auth/platform-caller';
import { RestController } from './rest/rest.controller';
import { RestRepository } from './rest/rest.repository';
import { RestService } from './rest/rest.service';
import { UsersModule } from './users/users.module';

/** The Supabase-compatible data platform: /auth/v1 (GoTrue) and /rest/v1 (PostgREST) over PostgreSQL roles and RLS. */
@Module({
  imports: [UsersModule],
  controllers: [AuthController, RestController],
  providers: [AccessTokens, PlatformCallers, PlatformApiKeyGuard, AuthService, SessionsRepository, RestService, RestRepository],
})
export class PlatformModule {}
