import { Module } from '@nestjs/common';
import { OperatorsModule } from '../operators/operators.module';
import { PasskeysController } from './passkeys.controller';
import { PasskeysRepository } from './passkeys.repository';
import { PasskeysService } from './passkeys.service';

/** Operators' passkeys (WebAuthn): registration, sign-in with one alone, the second factor, step-up (docs/sso.md). */
@Module({
  imports: [OperatorsModule],
  controllers: [PasskeysController],
  providers: [PasskeysRepository, PasskeysService],
})
export class PasskeysModule {}
