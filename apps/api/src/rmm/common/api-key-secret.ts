import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Length of the public part of a key shown in listings and used to find its row. */
export const API_KEY_PREFIX_LENGTH = 12;

/** A new random key: `rmm_` and 40 URL-safe characters (240 bits). */
export function generateApiKeySecret(): string {
  return `rmm_${randomBytes(30).toString('base64url')}`;
}

export function apiKeyPrefix(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX_LENGTH);
}

/**
 * Keys are long random strings, so a fast hash is enough (as for GitHub's tokens): SHA-256 makes a
 * leaked table useless without making every request pay for a slow hash.
 */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function apiKeyMatches(secret: string, hash: string): boolean {
  const a = Buffer.from(hashApiKey(secret), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
