import { Injectable } from '@nestjs/common';
import { OperatorRole } from '@app/entities';
import { TransactionHost } from '../../../database/transaction-host';
import type { SignInMethod } from '../../common/principal';

/** How a session began: the method, and the address and User-Agent it came from (shown in the sessions list). */
export interface SessionOrigin {
  method: SignInMethod;
  address: string | null;
  userAgent: string | null;
}

/** A live session with the operator it belongs to (one statement: the cookie's check on every request). */
export interface SessionWithOperator {
  sessionId: string;
  lastSeenAt: Date;
  expiresAt: Date;
  authenticatedAt: Date;
  operatorId: number;
  email: string;
  role: OperatorRole;
  clients: number[] | null;
  disabled: boolean;
}

/** A session as its operator sees it in the sessions list (never its token's hash). */
export interface SessionRow {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  authenticatedAt: Date;
  method: string;
  address: string | null;
  userAgent: string | null;
}

/** The `operator_sessions` table: only a SHA-256 of each cookie is stored. */
@Injectable()
export class OperatorSessionsRepository {
  constructor(private readonly tx: TransactionHost) {}

  async create(tokenHash: string, operatorId: number, now: Date, expiresAt: Date, how: SessionOrigin): Promise<string> {
    const [row] = await this.tx.rows<{ id: string }>(
      `INSERT INTO operator_sessions (token_hash, operator_id, created_at, last_seen_at, expires_at, authenticated_at, method, address, user_agent)
       VALUES ($1, $2, $3, $3, $4, $3, $5, $6, $7) RETURNING id`,
      [tokenHash, operatorId, now, expiresAt, how.method, how.address?.slice(0, 100) ?? null, how.userAgent?.slice(0, 500) ?? null],
    );
    return row.id;
  }

  /** The operator proved who they are again in this session (step-up): the step-up window counts from `now`. */
  async reauthenticated(sessionId: string, operatorId: number, now: Date, method: SignInMethod): Promise<boolean> {
    const { rowCount } = await this.tx.exec(`UPDATE operator_sessions SET authenticated_at = $3, method = $4 WHERE id = $1 AND operator_id = $2`, [sessionId, operatorId, now, method]);
    return rowCount === 1;
  }

  /** The session of this cookie, if it is still within its absolute end and its idle limit, with its operator. */
  async findLive(tokenHash: string, now: Date, idleMs: number): Promise<SessionWithOperator | null> {
    const [row] = await this.tx.rows<SessionWithOperator>(
      `SELECT s.id AS "sessionId", s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt", s.authenticated_at AS "authenticatedAt", o.id AS "operatorId",
              o.email, o.role, o.clients, o.disabled
         FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
        WHERE s.token_hash = $1 AND s.expires_at > $2 AND s.last_seen_at > $2::timestamptz - make_interval(secs => $3::double precision / 1000)`,
      [tokenHash, now, idleMs],
    );
    return row ?? null;
  }

  async touch(sessionId: string, now: Date): Promise<void> {
    await this.tx.exec(`UPDATE operator_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2`, [sessionId, now]);
  }

  async delete(sessionId: string): Promise<void> {
    await this.tx.exec(`DELETE FROM operator_sessions WHERE id = $1`, [sessionId]);
  }

  /** An operator's live sessions, the most recently used first. */
  listLive(operatorId: number, now: Date, idleMs: number): Promise<SessionRow[]> {
    return this.tx.rows<SessionRow>(
      `SELECT id, created_at AS "createdAt", last_seen_at AS "lastSeenAt", expires_at AS "expiresAt", authenticated_at AS "authenticatedAt",
              method, address, user_agent AS "userAgent"
         FROM operator_sessions
        WHERE operator_id = $1 AND expires_at > $2 AND last_seen_at > $2::timestamptz - make_interval(secs => $3::double precision / 1000)
        ORDER BY last_seen_at DESC, created_at DESC`,
      [operatorId, now, idleMs],
    );
  }

  /** Ends one session of this operator: false when it is not theirs (or gone). */
  async deleteOwn(sessionId: string, operatorId: number): Promise<boolean> {
    const { rowCount } = await this.tx.exec(`DELETE FROM operator_sessions WHERE id = $1 AND operator_id = $2`, [sessionId, operatorId]);
    return rowCount === 1;
  }

  /** Ends every session of this operator but one ("sign out everywhere else"); answers the ids ended. */
  async deleteOthers(operatorId: number, keep: string): Promise<string[]> {
    const rows = await this.tx.rows<{ id: string }>(`DELETE FROM operator_sessions WHERE operator_id = $1 AND id <> $2 RETURNING id`, [operatorId, keep]);
    return rows.map((r) => r.id);
  }

  /** Ends every session of an operator (disabled, new password). */
  async deleteForOperator(operatorId: number): Promise<void> {
    await this.tx.exec(`DELETE FROM operator_sessions WHERE operator_id = $1`, [operatorId]);
  }

  /** Sessions past their end or idle limit (housekeeping; they are refused anyway). */
  async deleteStale(now: Date, idleMs: number): Promise<number> {
    const { rowCount } = await this.tx.exec(
      `DELETE FROM operator_sessions WHERE expires_at <= $1 OR last_seen_at <= $1::timestamptz - make_interval(secs => $2::double precision / 1000)`,
      [now, idleMs],
    );
    return rowCount;
  }
}
