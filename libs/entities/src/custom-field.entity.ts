import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AgentEntity } from './agent.entity';
import { ClientEntity } from './client.entity';
import { sqlList } from './enums';
import { SiteEntity } from './site.entity';

/** What a custom field belongs to (docs/custom-fields.md). */
export const CUSTOM_FIELD_SCOPES = ['agent', 'site', 'client'] as const;
export type CustomFieldScope = (typeof CUSTOM_FIELD_SCOPES)[number];

/** What a custom field holds; a secret is text that is never answered (docs/custom-fields.md). */
export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'select', 'multiselect', 'secret'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A custom field's value as stored (jsonb): text and secret and date and select a string, a number, a boolean, a multiselect a list of strings. */
export type CustomFieldValue = string | number | boolean | string[];

/**
 * A custom field's definition (issue #31): a named, typed value that every agent, site or client (its scope) may
 * carry, read by people and filled into scripts' arguments (`{{agent.<name>}}`). Its values are rows of
 * custom_field_values, dropped with it.
 */
@Entity({ name: 'custom_fields' })
@Check('CHK_custom_fields_scope', `"scope" IN (${sqlList(CUSTOM_FIELD_SCOPES)})`)
@Check('CHK_custom_fields_type', `"type" IN (${sqlList(CUSTOM_FIELD_TYPES)})`)
@Check('CHK_custom_fields_name', `"name" ~ '^[a-z][a-z0-9_]{0,63}$'`)
@Index('UQ_custom_fields_scope_name', ['scope', 'name'], { unique: true })
export class CustomFieldEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  label: string;

  @Column({ type: 'text' })
  scope: CustomFieldScope;

  @Column({ type: 'text' })
  type: CustomFieldType;

  /** select and multiselect: the allowed values; null for the other types. */
  @Column({ type: 'jsonb', nullable: true })
  options: string[] | null;

  /** Answered (and filled into scripts) for an agent, site or client without a value of its own; never for a secret. */
  @Column({ name: 'default_value', type: 'jsonb', nullable: true })
  defaultValue: CustomFieldValue | null;

  /** Shown as required in the console; a value can still be cleared (docs/custom-fields.md). */
  @Column({ type: 'boolean', default: false })
  required: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * One value of a custom field: of one agent, one site or one client (exactly one of the three, matching the
 * field's scope). Dropped with its field, or with its agent, site or client.
 */
@Entity({ name: 'custom_field_values' })
@Check('CHK_custom_field_values_owner', `num_nonnulls("agent_id", "site_id", "client_id") = 1`)
@Index('UQ_custom_field_values_agent', ['agentId', 'fieldId'], { unique: true, where: '"agent_id" IS NOT NULL' })
@Index('UQ_custom_field_values_site', ['siteId', 'fieldId'], { unique: true, where: '"site_id" IS NOT NULL' })
@Index('UQ_custom_field_values_client', ['clientId', 'fieldId'], { unique: true, where: '"client_id" IS NOT NULL' })
@Index('IDX_custom_field_values_field', ['fieldId'])
export class CustomFieldValueEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ name: 'field_id', type: 'integer' })
  fieldId: number;

  @ManyToOne(() => CustomFieldEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'field_id', foreignKeyConstraintName: 'FK_custom_field_values_field' })
  field?: CustomFieldEntity;

  @Column({ name: 'agent_id', type: 'integer', nullable: true })
  agentId: number | null;

  @ManyToOne(() => AgentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'agent_id', foreignKeyConstraintName: 'FK_custom_field_values_agent' })
  agent?: AgentEntity | null;

  @Column({ name: 'site_id', type: 'integer', nullable: true })
  siteId: number | null;

  @ManyToOne(() => SiteEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'site_id', foreignKeyConstraintName: 'FK_custom_field_values_site' })
  site?: SiteEntity | null;

  @Column({ name: 'client_id', type: 'integer', nullable: true })
  clientId: number | null;

  @ManyToOne(() => ClientEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'client_id', foreignKeyConstraintName: 'FK_custom_field_values_client' })
  client?: ClientEntity | null;

  @Column({ type: 'jsonb' })
  value: CustomFieldValue;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
