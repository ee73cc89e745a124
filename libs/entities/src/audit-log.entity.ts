import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { sqlList } from './enums';

/**
 * Who acted: a management API key, the data platform's service role, a signed-in data-platform user, an
 * operator at the CLI, or nobody known (a request refused before any credential could be tied to it).
 */
export const AUDIT_ACTOR_KINDS = ['api_key', 'service_role', 'user', 'cli', 'anonymous', 'operator'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * One mutating call (an /api/v3 or /auth/v1/admin request, or an operator CLI command), whatever its outcome.
 * Never holds a secret: keys are named by id and name, CLI arguments are kept only for known harmless flags.
 * No foreign keys: a row outlives the key, user or client it names.
 */
@Entity({ name: 'audit_log' })
@Check('CHK_audit_log_actor_kind', `"actor_kind" IN (${sqlList(AUDIT_ACTOR_KINDS)})`)
@Index('IDX_audit_log_actor', ['actorKind', 'actorId', 'at'])
export class AuditLogEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  /** When the outcome was known (the answer was sent, or the command finished). */
  @Index('IDX_audit_log_at')
  @Column({ type: 'timestamptz', default: () => 'now()' })
  at: Date;

  @Column({ name: 'actor_kind', type: 'text' })
  actorKind: AuditActorKind;

  /** The API key's id, the user's uuid; null for the service role, the CLI and anonymous callers. */
  @Column({ name: 'actor_id', type: 'text', nullable: true })
  actorId: string | null;

  /** The API key's name, the user's e-mail, `service_role`, or the operating-system user of the CLI. */
  @Column({ name: 'actor_name', type: 'text', nullable: true })
  actorName: string | null;

  /** POST, PUT, PATCH or DELETE; null for a CLI command. */
  @Column({ type: 'text', nullable: true })
  method: string | null;

  /** Method and route pattern (`DELETE /api/v3/clients/{id}/`), or the CLI command (`apikey revoke`). */
  @Column({ type: 'text' })
  action: string;

  /** The path as requested (no query string), or the CLI arguments without secrets. */
  @Column({ type: 'text' })
  target: string;

  @Column({ name: 'client_address', type: 'text', nullable: true })
  clientAddress: string | null;

  /** The HTTP status answered; null for a CLI command. */
  @Column({ type: 'integer', nullable: true })
  status: number | null;

  /** The status as text for HTTP, `ok` or `error: <message>` for the CLI. */
  @Column({ type: 'text' })
  outcome: string;

  @Column({ name: 'request_id', type: 'text', nullable: true })
  requestId: string | null;

  /**
   * What a change did, where its service says (a policy: `{before, after}`, null for the side that does not exist);
   * null for the other rows. Never a secret.
   */
  @Column({ type: 'jsonb', nullable: true })
  changes: AuditChanges | null;
}

/** A resource before and after a change (null: created, or deleted). */
export interface AuditChanges {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
