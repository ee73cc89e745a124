import { Injectable } from '@nestjs/common';
import { API_KEY_SCOPES, ApiKeyEntity, ApiKeyScope } from '@app/entities';
import { Clock } from '../../../common/clock';
import { CommonErrorCode, DomainError, FieldError, invalid, notFound } from '../../../common/errors/domain-error';
import { ClientScope, EVERY_CLIENT, inScope } from '../../common/client-scope';
import { requireScope } from '../../common/principal';
import { Page } from '../../common/pagination.dto';
import { RmmEvents } from '../../common/bus/rmm-events';
import { apiKeyMatches, apiKeyPrefix, generateApiKeySecret, hashApiKey } from '../../common/api-key-secret';
import { ApiKeyCache } from './api-key-cache';
import { ApiKeysRepository } from './api-keys.repository';
import { keyExpiry } from './key-expiry';

export interface NewApiKey {
  name: string;
  scopes: readonly string[];
  /** A duration from now ("30d"), or a time (ISO 8601 text or a Date); never both. Neither: no expiry. */
  expiresIn?: string;
  expiresAt?: string | Date | null;
  /** The only clients the key may see and act in; absent or null: every client. */
  clients?: readonly number[] | null;
  /** The clients of whoever creates it (absent: every client, the CLI): a limited creator grants only its own. */
  createdBy?: ClientScope;
}

/** As the column and the API's DTO allow. */
export const MAX_KEY_NAME_LENGTH = 200;

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly clock: Clock,
    private readonly events: RmmEvents,
    private readonly cache: ApiKeyCache,
  ) {}

  /** Creates a key; the secret is returned this once and stored only as a hash. */
  async create(input: NewApiKey, secret = generateApiKeySecret()): Promise<{ key: ApiKeyEntity; secret: string }> {
    const name = input.name.trim();
    if (!name) throw invalid('name must not be empty', [{ field: 'name', message: 'must not be empty' }]);
    if (name.length > MAX_KEY_NAME_LENGTH) {
      throw invalid(`name must be at most ${MAX_KEY_NAME_LENGTH} characters`, [{ field: 'name', message: `at most ${MAX_KEY_NAME_LENGTH} characters` }]);
    }
    const scopes = normaliseScopes(input.scopes);
    const clients = await this.grantableClients(input.clients ?? null, input.createdBy ?? EVERY_CLIENT);
    const expiresAt =
      input.expiresAt instanceof Date
        ? keyExpiry(this.clock.now(), { expiresAt: input.expiresAt.toISOString() })
        : keyExpiry(this.clock.now(), { expiresIn: input.expiresIn, expiresAt: input.expiresAt ?? undefined });
    const key = await this.keys.insert({
      name,
      prefix: apiKeyPrefix(secret),
      secretHash: hashApiKey(secret),
      scopes,
      clients,
      expiresAt,
    });
    return { key, secret };
  }

  /**
   * A new key's clients: each must exist, and be one of its creator's when the creator is limited (another
   * client is answered as an unknown one); a limited creator must limit the new key (no way out of its own
   * limit). 400 naming `clients` otherwise. Sorted and without repeats.
   */
  private async grantableClients(given: readonly number[] | null, creator: ClientScope): Promise<number[] | null> {
    if (given === null) {
      if (creator === null) return null;
      throw invalid('validation error', [{ field: 'clients', message: 'required: a key limited to some clients may only create keys limited to some of them' }]);
    }
    if (given.length === 0) throw invalid('validation error', [{ field: 'clients', message: 'at least one client (or leave clients out for every client)' }]);
    const ids = [...new Set(given)].sort((a, b) => a - b);
    const existing = await this.keys.existingClients(ids);
    const errors: FieldError[] = ids.filter((id) => !existing.has(id) || !inScope(creator, id)).map((id) => ({ field: 'clients', message: `no client ${id}` }));
    if (errors.length > 0) throw invalid('validation error', errors);
    return ids;
  }

  /** Every key, by id (the CLI: every client). */
  async list(): Promise<ApiKeyEntity[]> {
    return (await this.keys.list({ offset: 0 }, EVERY_CLIENT))[0];
  }

  /**
   * One page of the keys the caller manages (by id), and their number. A caller limited to some clients
   * manages only keys limited within them; an unlimited key, or one with another client, does not exist for it
   * (as operators: OperatorsService), so a limited admin cannot revoke, or learn of, a wider key.
   */
  listPage(page: Page, managers: ClientScope = EVERY_CLIENT): Promise<[ApiKeyEntity[], number]> {
    return this.keys.list(page, managers);
  }

  /** One key the caller manages; 404 otherwise. */
  async get(id: number, managers: ClientScope = EVERY_CLIENT): Promise<ApiKeyEntity> {
    const key = await this.keys.findManaged(id, managers);
    if (!key) throw notFound();
    return key;
  }

  /** Revokes a key the caller manages (404 otherwise, nothing changed); it answers 401 from now on. */
  async revoke(id: number, managers: ClientScope = EVERY_CLIENT): Promise<ApiKeyEntity> {
    const key = await this.keys.revoke(id, this.clock.now(), managers);
    if (!key) throw notFound();
    this.cache.forget(key.id); // at once here; other instances on the event
    this.events.emit('apikey.revoked', { keyId: key.id });
    return key;
  }

  /**
   * The key of a request, for every surface that takes the management API's keys (the HTTP guard; the
   * events WebSocket's handshake later): Unauthorized when missing, wrong, revoked or expired; Forbidden
   * when it lacks `scope` (admin keys have every scope).
   */
  async authenticate(secret: string | undefined, scope: ApiKeyScope): Promise<ApiKeyEntity> {
    const key = secret ? await this.verify(secret) : null;
    if (!key) throw new DomainError(CommonErrorCode.Unauthorized, 'Invalid token');
    requireScope(key, scope);
    return key;
  }

  /**
   * The key this secret belongs to, if it exists and is usable at `now`. A key verified in the last few
   * seconds comes from ApiKeyCache (no database round trip); its expiry is still checked against `now`.
   */
  async verify(secret: string, now = this.clock.now()): Promise<ApiKeyEntity | null> {
    if (!secret) return null;
    const hash = hashApiKey(secret);
    const nowMs = Date.now();
    let key = this.cache.get(hash, nowMs);
    if (!key) {
      const candidates = await this.keys.findByPrefix(apiKeyPrefix(secret));
      key = candidates.find((k) => apiKeyMatches(secret, k.secretHash));
      if (key && !key.revokedAt) this.cache.set(hash, key, nowMs);
    }
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
      this.cache.clear();
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

export { parseDuration } from './key-expiry';
