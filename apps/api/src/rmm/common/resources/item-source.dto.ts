import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/*
 * Where a check or task of an agent comes from (issue #31, docs/policies.md): the agent's own, or a policy's item the
 * policy engine applies to it. In the ground because checks and tasks both carry it.
 */

export class SourcePolicyDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
}

/** `{type: "agent"}`, or `{type: "policy", policy: {id, name}, enforced}`. */
export class ItemSourceDto {
  @ApiProperty({ enum: ['agent', 'policy'] }) type: 'agent' | 'policy';
  @ApiPropertyOptional({ type: SourcePolicyDto, description: 'type policy: the policy the item comes from' }) policy?: SourcePolicyDto;
  @ApiPropertyOptional({ description: 'type policy: whether the policy is enforced (its items cannot be overridden per agent)' }) enforced?: boolean;
  @ApiPropertyOptional({ description: "type policy: the item's merge key, as an override names it (PUT /api/v3/agents/{id}/policy-overrides/)" }) key?: string;
}

/** The source of a checks/tasks row from its policy item (with its policy; absent: the agent's own). */
export function toItemSource(item: { key: string; policy?: { id: number; name: string; enforced: boolean } } | null | undefined): ItemSourceDto {
  const policy = item?.policy;
  return item && policy ? { type: 'policy', policy: { id: policy.id, name: policy.name }, enforced: policy.enforced, key: item.key } : { type: 'agent' };
}
