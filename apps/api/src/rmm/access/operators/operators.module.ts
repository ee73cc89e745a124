import { Module } from '@nestjs/common';
import { UsersModule } from '../../../platform/users/users.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AccountController } from './account.controller';
import { AuthChallengesRepository } from './auth-challenges.repository';
import { ChallengeLimits } from './challenge-limits';
import { OperatorAuthController } from './operator-auth.controller';
import { OperatorSessionsRepository } from './operator-sessions.repository';
import { OperatorsController } from './operators.controller';
import { OperatorsRepository } from './operators.repository';
import { OperatorsService } from './operators.service';
import { PrincipalResolver } from './principal-resolver';
import { SecondFactors } from './second-factor';

/** Operators, their console sessions, and who a management caller is (PrincipalResolver). */
@Module({
  imports: [ApiKeysModule, UsersModule],
  controllers: [OperatorAuthController, AccountController, OperatorsController],
  providers: [OperatorsRepository, OperatorSessionsRepository, AuthChallengesRepository, OperatorsService, PrincipalResolver, SecondFactors, ChallengeLimits],
  exports: [PrincipalResolver, OperatorsService, OperatorSessionsRepository, OperatorsRepository, AuthChallengesRepository, SecondFactors, ChallengeLimits],
})
export class OperatorsModule {}
