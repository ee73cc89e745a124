import { Injectable } from '@nestjs/common';
import { Repository } from 'typeorm';
import { OperatorEntity, OperatorRole } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';

export type OperatorChanges = Partial<Pick<OperatorEntity, 'role' | 'clients' | 'disabled' | 'passwordHash' | 'totpSecret' | 'recoveryCodes' | 'totpLastStep' | 'oidcLinkAllowed'>>;

/** The `operators` table. */
@Injectable()
export class OperatorsRepository {
  constructor(private readonly tx: TransactionHost) {}

  private get repo(): Repository<OperatorEntity> {
    return this.tx.repo(OperatorEntity);
  }

  insert(o: { email: string; passwordHash: string; role: OperatorRole; clients: number[] | null; breakGlass?: boolean }): Promise<OperatorEntity> {
    return this.repo.save(this.repo.create(o));
  }

  list(): Promise<OperatorEntity[]> {
    return this.repo.find({ order: { id: 'ASC' } });
  }

  /** Whether an enabled admin exists (the start banner says how to make the first one when none does). */
  hasActiveAdmin(): Promise<boolean> {
    return this.repo.existsBy({ role: 'admin', disabled: false });
  }

  findById(id: number): Promise<OperatorEntity | null> {
    return this.repo.findOneBy({ id });
  }

  findByEmail(email: string): Promise<OperatorEntity | null> {
    return this.repo.findOneBy({ email });
  }

  async update(id: number, changes: OperatorChanges): Promise<OperatorEntity | null> {
    if (Object.keys(changes).length > 0) await this.repo.update({ id }, changes);
    return this.findById(id);
  }

  /**
   * Accepts a TOTP time step once: true only when it is later than the last one accepted (a code seen by an
   * eavesdropper cannot be replayed within its 30 s), in one statement so two sign-ins cannot both use it.
   */
  async acceptTotpStep(id: number, step: number): Promise<boolean> {
    const { rowCount } = await this.tx.exec(
      `UPDATE operators SET totp_last_step = $2 WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
      [id, step],
    );
    return rowCount === 1;
  }

  /** Uses up one recovery code (by its hash): true when it was there. */
  async useRecoveryCode(id: number, codeHash: string): Promise<boolean> {
    const { rowCount } = await this.tx.exec(
      `UPDATE operators SET recovery_codes = array_remove(recovery_codes, $2) WHERE id = $1 AND $2 = ANY(recovery_codes)`,
      [id, codeHash],
    );
    return rowCount === 1;
  }

  /** How many passkeys the operator has registered (GET /api/v3/auth/me: whether the step-up dialog offers one). */
  async passkeyCount(operatorId: number): Promise<number> {
    const [row] = await this.tx.rows<{ n: number }>(`SELECT count(*)::int AS n FROM operator_passkeys WHERE operator_id = $1`, [operatorId]);
    return row?.n ?? 0;
  }

  /** Client ids among these that do not exist. */
  async missingClients(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.tx.rows<{ id: number }>(`SELECT u.id FROM unnest($1::int[]) AS u(id) WHERE NOT EXISTS (SELECT 1 FROM clients c WHERE c.id = u.id)`, [ids]);
    return rows.map((r) => r.id);
  }
}
