import { Module } from '@nestjs/common';
import { OperatorsModule } from '../operators/operators.module';
import { OidcAccountsRepository } from './oidc-accounts.repository';
import { OidcClient } from './oidc-client';
import { OidcController } from './oidc.controller';
import { OidcService } from './oidc.service';

/** Company sign-in through an OpenID provider (docs/sso.md): the login and callback routes, account linking, group mapping. */
@Module({
  imports: [OperatorsModule],
  controllers: [OidcController],
  providers: [OidcClient, OidcService, OidcAccountsRepository],
})
export class SsoModule {}
