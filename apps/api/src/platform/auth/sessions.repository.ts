import { Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { TransactionHost } from '../../database/transaction-host';

export const hashRefreshToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export type RotateResult = { outcome: 'rotated'; sessionId: string; userId: string } | { outcome: 'reused'; sessionId: string } | { outcome: 'unknown' };

/** auth.sessions and auth.refresh_tokens. Refresh tokens are stored as their SHA-256 only. */
@Injectable()
export class SessionsRepository {
  constructor(private readonly tx: TransactionHost) {}

  async createSession(userId: string, signedInAt: Date): Promise<{ sessionId: string; refreshToken: string }> {
    return this.tx.run(async () => {
      const [session] = await this.tx.rows<{ id: string }>(`INSERT INTO auth.sessions (user_id) VALUES ($1) RETURNING id`, [userId]);
      await this.tx.exec(`UPDATE auth.users SET last_sign_in_at = $2 WHERE id = $1`, [userId, signedInAt]);
      const refreshToken = await this.issue(session.id);
      return { sessionId: session.id, refreshToken };
    });
  }

  /**
   * Uses a refresh token up: atomically marks it revoked and issues the next one in the same session.
   * A token used a second time ends its session (someone else holds a copy of it).
   */
  async rotate(token: string): Promise<RotateResult & { refreshToken?: string }> {
    return this.tx.run(async () => {
      const rows = await this.tx.rows<{ session_id: string; user_id: string }>(
        `UPDATE auth.refresh_tokens t SET revoked = true
           FROM auth.sessions s
          WHERE t.token_hash = $1 AND t.revoked = false AND s.id = t.session_id
         RETURNING t.session_id, s.user_id`,
        [hashRefreshToken(token)],
      );
      if (rows.length === 1) {
        await this.tx.exec(`UPDATE auth.sessions SET updated_at = now() WHERE id = $1`, [rows[0].session_id]);
        const refreshToken = await this.issue(rows[0].session_id);
        return { outcome: 'rotated' as const, sessionId: rows[0].session_id, userId: rows[0].user_id, refreshToken };
      }
      const used = await this.tx.rows<{ session_id: string }>(`SELECT session_id FROM auth.refresh_tokens WHERE token_hash = $1`, [
        hashRefreshToken(token),
      ]);
      if (used.length === 1) {
        await this.tx.exec(`DELETE FROM auth.sessions WHERE id = $1`, [used[0].session_id]);
        return { outcome: 'reused' as const, sessionId: used[0].session_id };
      }
      return { outcome: 'unknown' as const };
    });
  }

  async sessionExists(sessionId: string, userId: string): Promise<boolean> {
    const rows = await this.tx.rows(`SELECT 1 FROM auth.sessions WHERE id = $1 AND user_id = $2`, [sessionId, userId]);
    return rows.length === 1;
  }

  /** Ends sessions (their refresh tokens go with them): one, all of a user's, or all but one. */
  async endSessions(userId: string, scope: 'local' | 'global' | 'others', sessionId: string): Promise<void> {
    if (scope === 'local') await this.tx.exec(`DELETE FROM auth.sessions WHERE id = $1 AND user_id = $2`, [sessionId, userId]);
    else if (scope === 'others') await this.tx.exec(`DELETE FROM auth.sessions WHERE user_id = $1 AND id <> $2`, [userId, sessionId]);
    else await this.tx.exec(`DELETE FROM auth.sessions WHERE user_id = $1`, [userId]);
  }

  private async issue(sessionId: string): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.tx.exec(`INSERT INTO auth.refresh_tokens (token_hash, session_id) VALUES ($1, $2)`, [hashRefreshToken(token), sessionId]);
    return token;
  }
}
