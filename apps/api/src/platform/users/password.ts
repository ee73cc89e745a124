import * as argon2 from 'argon2';

/** argon2id with the library's defaults (64 MiB, 3 passes). */
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
