/** What went wrong, independent of any wire format; the global filter turns it into a status. */
export enum ErrorKind {
  Validation = 'validation',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  Conflict = 'conflict',
  Gone = 'gone',
  RateLimited = 'rate_limited',
  BadGateway = 'bad_gateway',
  Unavailable = 'unavailable',
}

export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  [ErrorKind.Validation]: 400,
  [ErrorKind.Unauthorized]: 401,
  [ErrorKind.Forbidden]: 403,
  [ErrorKind.NotFound]: 404,
  [ErrorKind.MethodNotAllowed]: 405,
  [ErrorKind.Conflict]: 409,
  [ErrorKind.Gone]: 410,
  [ErrorKind.RateLimited]: 429,
  [ErrorKind.BadGateway]: 502,
  [ErrorKind.Unavailable]: 503,
};

export interface FieldError {
  field: string;
  message: string;
}

/**
 * An error a service throws on purpose. Services never build HTTP errors; each surface's
 * formatter (see error-surfaces.ts) decides what the client sees.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly fields: FieldError[] = [],
    /** Overrides the status of the kind where a contract says so (e.g. 400 for a conflict). */
    readonly status: number = STATUS_OF_KIND[kind],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what = 'Not found'): DomainError => new DomainError(ErrorKind.NotFound, what);
export const invalid = (message: string, fields: FieldError[] = []): DomainError =>
  new DomainError(ErrorKind.Validation, message, fields);
