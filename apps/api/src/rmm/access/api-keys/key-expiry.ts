import { invalid } from '../../../common/errors/domain-error';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/** "30d", "12h", "90m", "3600s", "2w" → milliseconds. */
export function parseDuration(text: string, field = 'expires_in'): number {
  const m = /^(\d{1,9})\s*([smhdw])$/.exec(text.trim());
  if (!m) throw invalid(`invalid duration "${text}" (use e.g. 30d, 12h, 90m)`, [{ field, message: 'invalid duration (use e.g. 30d, 12h, 90m)' }]);
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  if (ms <= 0) throw invalid('duration must be positive', [{ field, message: 'must be positive' }]);
  return ms;
}

/**
 * When a new key expires: `expiresIn` (a duration from now) or `expiresAt` (a time), never both; it must
 * lie ahead of `now`. Null: the key does not expire. Shared by POST /api/v3/keys/ and `apikey create`.
 */
export function keyExpiry(now: Date, given: { expiresIn?: string; expiresAt?: string }, fields = { in: 'expires_in', at: 'expires_at' }): Date | null {
  if (given.expiresIn && given.expiresAt) throw invalid('validation error', [{ field: fields.in, message: `give ${fields.at} or ${fields.in}, not both` }]);
  const at = given.expiresIn
    ? new Date(now.getTime() + parseDuration(given.expiresIn, fields.in))
    : given.expiresAt
      ? new Date(given.expiresAt)
      : null;
  if (at && !(at.getTime() > now.getTime())) throw invalid('validation error', [{ field: given.expiresIn ? fields.in : fields.at, message: 'must be in the future' }]);
  return at;
}
