import { Injectable } from '@nestjs/common';
import { TransactionHost } from '../../../database/transaction-host';

/** What a challenge is for (docs/sso.md): an OpenID round trip, or one of the WebAuthn ceremonies. */
export type ChallengePurpose = 'oidc' | 'passkey_register' | 'passkey_sign_in' | 'passkey_step_up' | 'passkey_second_factor';

export interface Challenge {
  id: string;
  purpose: ChallengePurpose;
  operatorId: number | null;
  sessionId: string | null;
  payload: Record<string, unknown>;
}

/**
 * The `auth_challenges` table: a sign-in or ceremony in flight, kept in the database so any instance can finish what
 * another began, and taken once (DELETE … RETURNING: a replayed state or challenge finds nothing).
 */
@Injectable()
export class AuthChallengesRepository {
  constructor(private readonly tx: TransactionHost) {}

  async create(c: Omit<Challenge, 'id'>, expiresAt: Date): Promise<string> {
    const [row] = await this.tx.rows<{ id: string }>(
      `INSERT INTO auth_challenges (purpose, operator_id, session_id, payload, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [c.purpose, c.operatorId, c.sessionId, JSON.stringify(c.payload), expiresAt],
    );
    return row.id;
  }

  /** Takes (deletes and returns) a live challenge of this purpose; null when unknown, used, expired or of another purpose. */
  async take(id: string, purpose: ChallengePurpose, now: Date): Promise<Challenge | null> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    const [row] = await this.tx.rows<Challenge & { expiresAt: Date }>(
      `DELETE FROM auth_challenges WHERE id = $1 AND purpose = $2
       RETURNING id, purpose, operator_id AS "operatorId", session_id AS "sessionId", payload, expires_at AS "expiresAt"`,
      [id, purpose],
    );
    if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
    return { id: row.id, purpose: row.purpose, operatorId: row.operatorId, sessionId: row.sessionId, payload: row.payload };
  }

  /** Housekeeping: challenges past their end (refused anyway). */
  async deleteExpired(now: Date): Promise<number> {
    const { rowCount } = await this.tx.exec(`DELETE FROM auth_challenges WHERE expires_at <= $1`, [now]);
    return rowCount;
  }
}
