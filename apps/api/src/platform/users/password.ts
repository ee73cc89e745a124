import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { CommonErrorCode, DomainError } from '../../common/errors/domain-error';
import { RuntimeConfig } from '../../config/runtime-config';
import { HashQueue, HashQueueFullError } from './hash-queue';

/** The longest password accepted (argon2 reads all of it: a megabyte-long password is a denial of service). */
export const MAX_PASSWORD_LENGTH = 1024;

/** argon2id with the library's defaults (64 MiB, 3 passes). Unbounded: use PasswordHasher in request paths. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/**
 * A hash to verify against when the email is unknown, so that a wrong email takes as long as
 * a wrong password and answers do not tell which emails exist.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword('not-a-real-password-' + Math.random());
  return dummy;
}

/** The refusal when every hashing slot and queue place is taken: 429 with Retry-After: 1 on every surface. */
export const hashingBusy = (): DomainError<CommonErrorCode> =>
  new DomainError(CommonErrorCode.RateLimited, 'Request rate limit reached: too many sign-ins in progress, retry in a moment', [], { 'Retry-After': '1' });

/**
 * Password hashing and verification for request paths, through one bounded queue per process:
 * AUTH_MAX_CONCURRENT_HASHES at once, AUTH_HASH_QUEUE_LENGTH waiting, any more refused at once (hashingBusy).
 */
@Injectable()
export class PasswordHasher {
  private readonly queue: HashQueue;

  constructor(config: RuntimeConfig) {
    this.queue = new HashQueue(config.authMaxConcurrentHashes, config.authHashQueueLength);
  }

  hash(password: string): Promise<string> {
    return this.bounded(() => hashPassword(password));
  }

  /**
   * Verifies `password` against `hash`, or against the dummy hash when there is no user (`hash` null), at the
   * same cost. A password longer than MAX_PASSWORD_LENGTH is false without hashing (no account can have it).
   * `hash` may be a loader, run once a slot is this request's, just before hashing: the sign-in counts the
   * attempt there (so concurrent guesses cannot all pass one check) and looks the user up, so a request refused
   * for want of a slot costs no database query.
   */
  async verify(hash: string | null | undefined | (() => Promise<string | null | undefined>), password: string): Promise<boolean> {
    return this.bounded(async () => {
      const stored = typeof hash === 'function' ? await hash() : hash;
      if (password.length > MAX_PASSWORD_LENGTH) return false;
      return verifyPassword(stored ?? (await dummyPasswordHash()), password);
    });
  }

  /** Runs `task` within a hashing slot (refused at once with hashingBusy when none is free and the queue is full). */
  async bounded<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await this.queue.run(task);
    } catch (err) {
      if (err instanceof HashQueueFullError) throw hashingBusy();
      throw err;
    }
  }
}
