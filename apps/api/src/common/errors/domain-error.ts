/**
 * Errors are codes, not statuses. A service throws a DomainError carrying its module's code (an enum in
 * the module's `*.errors.ts`) and a human message; each wire surface (`*-error.surface.ts`) maps every
 * code it can meet to its own status and body in one exhaustive table. No service names an HTTP status.
 */

/** Codes any module may throw; every surface maps all of them. */
export enum CommonErrorCode {
  /** The input is wrong; `fields` says which fields and why. */
  Validation = 'validation',
  NotFound = 'not_found',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  RateLimited = 'rate_limited',
  /** A dependency (the database) is not answering now; retry later. */
  Unavailable = 'unavailable',
}

export interface FieldError {
  field: string;
  message: string;
}

export class DomainError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    message: string,
    readonly fields: FieldError[] = [],
    /** Headers the answer must carry whatever the surface (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what = 'Not found'): DomainError<CommonErrorCode> => new DomainError(CommonErrorCode.NotFound, what);

export const invalid = (message: string, fields: FieldError[] = []): DomainError<CommonErrorCode> =>
  new DomainError(CommonErrorCode.Validation, message, fields);

/** A 400 naming one field: `fieldInvalid('site_name', 'must not be empty')`. */
export const fieldInvalid = (field: string, message: string, summary = 'validation error'): DomainError<CommonErrorCode> =>
  invalid(summary, [{ field, message }]);

/** The status of each common code, which every HTTP surface starts its table from. */
export const COMMON_STATUS: Record<CommonErrorCode, number> = {
  [CommonErrorCode.Validation]: 400,
  [CommonErrorCode.NotFound]: 404,
  [CommonErrorCode.Unauthorized]: 401,
  [CommonErrorCode.Forbidden]: 403,
  [CommonErrorCode.RateLimited]: 429,
  [CommonErrorCode.Unavailable]: 503,
};
