import { DomainError, ErrorKind, STATUS_OF_KIND } from '../common/errors/domain-error';

const kindOfStatus = (status: number): ErrorKind =>
  (Object.entries(STATUS_OF_KIND).find(([, s]) => s === status)?.[0] as ErrorKind | undefined) ?? ErrorKind.Validation;

/**
 * Refused at the gateway, before auth or REST run: Supabase's API gateway answers these with a bare
 * `{message}` ("No API key found in request", "Invalid API key").
 */
export class GatewayError extends DomainError {
  constructor(message: 'No API key found in request' | 'Invalid API key') {
    super(ErrorKind.Unauthorized, message, [], 401);
  }
}

/** A GoTrue error: `error_code` is GoTrue's machine-readable code (invalid_credentials, bad_jwt …). */
export class GoTrueError extends DomainError {
  constructor(
    status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(kindOfStatus(status), message, [], status);
  }
}

/** A PostgREST error: `code` is a PostgreSQL SQLSTATE or a PGRSTxxx code. */
export class PostgrestError extends DomainError {
  constructor(
    status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
  ) {
    super(kindOfStatus(status), message, [], status);
  }
}
