import { Injectable } from '@nestjs/common';
import { API_KEY_SCOPES, ApiKeyEntity, ApiKeyScope } from '@app/entities';
import { invalid, notFound } from '../../common/errors/domain-error';
import { apiKeyMatches, apiKeyPrefix, generateApiKeySecret, hashApiKey } from './api-key-secret';
import { ApiKeysRepository } from './api-keys.repository';

export interface NewApiKey {
  name: string;
  scopes: ApiKeyScope[];
  expiresAt?: Date | null;
}

@Injectable()
export class ApiKeysService {
  constructor(private readonly keys: ApiKeysRepository) {}

  /** Creates a key; the secret is returned this once and stored only as a hash. */
  async create(input: NewApiKey, secret = generateApiKeySecret()): Promise<{ key: ApiKeyEntity; secret: string }> {
    const name = input.name.trim();
    if (!name) throw invalid('name must not be empty', [{ field: 'name', message: 'must not be empty' }]);
    const scopes = normaliseScopes(input.scopes);
    // (callers check that an expiry lies ahead against their Clock: the HTTP API and the CLI's --expires-in)
    const key = await this.keys.insert({
      name,
      prefix: apiKeyPrefix(secret),
      secretHash: hashApiKey(secret),
      scopes,
      expiresAt: input.expiresAt ?? null,
    });
    return { key, secret };
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.keys.list();
  }

  async revoke(id: number, at = new Date()): Promise<ApiKeyEntity> {
    const key = await this.keys.revoke(id, at);
    if (!key) throw notFound();
    return key;
  }

  /** The key this secret belongs to, if it exists and is usable at `now`. */
  async verify(secret: string, now = new Date()): Promise<ApiKeyEntity | null> {
    if (!secret) return null;
    const candidates = await this.keys.findByPrefix(apiKeyPrefix(secret));
    const key = candidates.find((k) => apiKeyMatches(secret, k.secretHash));
    if (!key || key.revokedAt || (key.expiresAt && key.expiresAt.getTime() <= now.getTime())) return null;
    return key;
  }

  /**
   * Makes sure a key with exactly this secret exists, is active and has these scopes
   * (keys the operator gives in the environment: RMM_ADMIN_API_KEY, RMM_API_KEY).
   */
  async ensure(secret: string, name: string, scopes: ApiKeyScope[]): Promise<ApiKeyEntity> {
    const existing = await this.keys.findByHash(hashApiKey(secret));
    if (!existing) return (await this.create({ name, scopes }, secret)).key;
    const sameScopes = existing.scopes.length === scopes.length && scopes.every((s) => existing.scopes.includes(s));
    if (!sameScopes || existing.revokedAt || existing.expiresAt || existing.name !== name) {
      await this.keys.restore(existing.id, name, scopes);
    }
    return (await this.keys.findById(existing.id))!;
  }
}

export function normaliseScopes(scopes: readonly string[]): ApiKeyScope[] {
  const unique = [...new Set(scopes.map((s) => s.trim()).filter(Boolean))];
  const unknown = unique.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) {
    throw invalid(`unknown scope ${unknown.join(', ')} (allowed: ${API_KEY_SCOPES.join(', ')})`, [
      { field: 'scopes', message: `unknown scope ${unknown.join(', ')}` },
    ]);
  }
  if (unique.length === 0) throw invalid('at least one scope is required', [{ field: 'scopes', message: 'at least one scope is required' }]);
  return unique as ApiKeyScope[];
}

/** "30d", "12h", "90m", "3600s" → milliseconds. */
export function parseDuration(text: string): number {
  const m = /^(\d+)\s*([smhdw])$/.exec(text.trim());
  if (!m) throw invalid(`invalid duration "${text}" (use e.g. 30d, 12h, 90m)`, [{ field: 'expires_in', message: 'invalid duration' }]);
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[m[2] as 's' | 'm' | 'h' | 'd' | 'w'];
  const ms = Number(m[1]) * unit;
  if (ms <= 0) throw invalid(`duration must be positive`, [{ field: 'expires_in', message: 'must be positive' }]);
  return ms;
}
