/** The longest wait between two attempts, whatever the back-off says. */
export const MAX_RETRY_DELAY_SECONDS = 3_600;

/**
 * The wait before the next attempt after `attempts` failed ones: base, 2×base, 4×base, … (30 s, 60 s, 120 s with the
 * default base), capped at an hour, plus up to a quarter more at random, so that deliveries failing together (a
 * receiver down for everyone) do not come back together. `random` is Math.random (a test gives its own).
 */
export function backoffSeconds(attempts: number, baseSeconds: number, random: () => number = Math.random): number {
  const nominal = Math.min(MAX_RETRY_DELAY_SECONDS, baseSeconds * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return nominal * (1 + 0.25 * random());
}

/**
 * Retry-After of a 429, in seconds from `now`: delta-seconds ("120") or an HTTP date; null when absent or not
 * understood (the back-off applies then). At least one second.
 */
export function retryAfterSeconds(header: string | string[] | undefined, now: Date): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  if (/^\d{1,10}$/.test(value)) return Math.max(1, Number(value));
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(1, Math.ceil((at - now.getTime()) / 1000));
}

/** What happens after an attempt. */
export type AttemptVerdict =
  | { kind: 'delivered' }
  | { kind: 'retry'; delaySeconds: number }
  | { kind: 'failed' }
  /** 410 Gone: the receiver says the channel is no more; it is disabled and the delivery failed. */
  | { kind: 'disable' };

/**
 * The rule of an attempt's outcome (docs/notifications.md, "Retries"): 2xx delivered; 410 disables the channel;
 * 429 waits for Retry-After; anything else (another status, no answer, refused) retries with back-off, until the
 * next attempt would come later than `retryForSeconds` after the first attempt: then failed. `final` (a refused
 * address, no SMTP configured, a test send): failed at once.
 */
export function verdict(
  outcome: { status: number | null; retryAfter?: string | string[]; final?: boolean },
  delivery: { attempts: number; firstAttemptAt: Date },
  policy: { baseSeconds: number; retryForSeconds: number },
  now: Date,
  random: () => number = Math.random,
): AttemptVerdict {
  const status = outcome.status;
  if (status !== null && status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410) return { kind: 'disable' };
  if (outcome.final) return { kind: 'failed' };
  const asked = status === 429 ? retryAfterSeconds(outcome.retryAfter, now) : null;
  const delaySeconds = asked ?? backoffSeconds(delivery.attempts, policy.baseSeconds, random);
  const deadline = delivery.firstAttemptAt.getTime() + policy.retryForSeconds * 1000;
  if (now.getTime() + delaySeconds * 1000 > deadline) return { kind: 'failed' };
  return { kind: 'retry', delaySeconds };
}
