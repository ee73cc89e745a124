/**
 * The per-caller budget of /rest/v1 and /functions/v1 together (PLATFORM_RATE_LIMIT_PER_USER_PER_MINUTE): the
 * data platform charges it per request (platform/auth/platform-caller.ts), the enrollment function once its token
 * check knows the user (enroll/enroll.service.ts). Here, so that neither imports the other.
 */
export const PLATFORM_BUDGET_WINDOW_MS = 60_000;

/** A signed-in user's bucket, shared by /rest/v1 and the functions (which know the user after their token check). */
export const userBudgetBucket = (userId: string): string => `platform:user:${userId}`;
