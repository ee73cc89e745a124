import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/** RFC 6238 as authenticator apps do it: SHA-1, 6 digits, 30 s steps; one step either side is accepted. */
const PERIOD_SECONDS = 30;
const WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;

const totpOf = (secretBase32: string, label = ''): TOTP =>
  new TOTP({ issuer: 'RMM', label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app scans (shown once). */
export function totpUri(secretBase32: string, email: string): string {
  return totpOf(secretBase32, email).toString();
}

/** The time step a code is good for, if it is good at `now` (within one step either side); null otherwise. */
export function totpStep(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secretBase32).validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

/** The current code (tests, the CLI's check). */
export function totpCode(secretBase32: string, now: Date): string {
  return totpOf(secretBase32).generate({ timestamp: now.getTime() });
}

/** Ten one-time recovery codes, `xxxxx-xxxxx` (shown once; stored as hashes). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const hex = randomBytes(5).toString('hex');
    return `${hex.slice(0, 5)}-${hex.slice(5)}`;
  });
}

export const hashRecoveryCode = (code: string): string => createHash('sha256').update(code.trim().toLowerCase()).digest('hex');
