import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { PrincipalResolver } from './principal-resolver';

/** Operators, their console sessions, and who a management caller is (PrincipalResolver). */
@Module({
  imports: [ApiKeysModule],
  providers: [PrincipalResolver],
  exports: [PrincipalResolver],
})
export class OperatorsModule {}
