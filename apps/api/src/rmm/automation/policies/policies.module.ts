import { Module } from '@nestjs/common';
import { AuditModule } from '../../access/audit/audit.module';
import { EffectivePolicyService } from './effective-policy.service';
import { EffectivePolicyController, PoliciesController } from './policies.controller';
import { PoliciesRepository } from './policies.repository';
import { PoliciesService } from './policies.service';
import { PolicyCatalog } from './policy-catalog';
import { PolicyCatalogCache } from './policy-catalog-cache';

/** Automation policies: the API (CRUD, preview) and each agent's effective policy (docs/policies.md). */
@Module({
  imports: [AuditModule],
  controllers: [PoliciesController, EffectivePolicyController],
  providers: [PoliciesRepository, PoliciesService, EffectivePolicyService, PolicyCatalog, PolicyCatalogCache],
  exports: [PolicyCatalogCache],
})
export class PoliciesModule {}
