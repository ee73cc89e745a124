import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from '@app/entities';
import { ApiKeyUsage } from './api-key-usage';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyUsage],
  exports: [ApiKeysService, ApiKeyUsage],
})
export class ApiKeysModule {}
