import { Module } from '@nestjs/common';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeyRevocations } from './api-key-revocations';
import { ApiKeyUsage } from './api-key-usage';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyUsage, ApiKeyCache, ApiKeyRevocations],
  exports: [ApiKeysService, ApiKeyUsage],
})
export class ApiKeysModule {}
