import { DomainError } from '../../common/errors/domain-error';

/** Refused at the gateway, before auth or REST run (Supabase's API gateway answers a bare `{message}`). */
export enum GatewayErrorCode {
  NoApiKey = 'gateway_no_api_key',
  InvalidApiKey = 'gateway_invalid_api_key',
}

const GATEWAY_MESSAGES: Record<GatewayErrorCode, string> = {
  [GatewayErrorCode.NoApiKey]: 'No API key found in request',
  [GatewayErrorCode.InvalidApiKey]: 'Invalid API key',
};

export class GatewayError extends DomainError<GatewayErrorCode> {
  constructor(code: GatewayErrorCode) {
    super(code, GATEWAY_MESSAGES[code]);
  }
}

/**
 * GoTrue's errors. The value of each code is its wire `error_code`, except where GoTrue answers one
 * error_code with two statuses (user_not_found: 403 from a token, 404 from the admin API).
 * The auth surface's table (auth-error.surface.ts) gives each its status.
 */
export enum AuthErrorCode {
  ValidationFailed = 'validation_failed',
  InvalidCredentials = 'invalid_credentials',
  RefreshTokenAlreadyUsed = 'refresh_token_already_used',
  RefreshTokenNotFound = 'refresh_token_not_found',
  NoAuthorization = 'no_authorization',
  BadJwt = 'bad_jwt',
  NotAdmin = 'not_admin',
  SessionNotFound = 'session_not_found',
  /** The user a token names no longer exists (403). */
  TokenUserNotFound = 'token_user_not_found',
  /** The admin API's user id names no user (404). */
  UserNotFound = 'user_not_found',
  /** Too many failed sign-ins for the account or the client address (429, with Retry-After). */
  OverRequestRateLimit = 'over_request_rate_limit',
}

export class AuthError extends DomainError<AuthErrorCode> {}

/**
 * PostgREST's errors, by what went wrong. The wire `code` is the PGRST code of the surface's table, or for
 * PostgreSQL's own refusals (the Db* codes) the SQLSTATE the database gave, kept in `sqlstate`.
 */
export enum RestErrorCode {
  ParseError = 'rest_parse_error',
  InvalidJson = 'rest_invalid_json',
  InvalidPath = 'rest_invalid_path',
  UnknownSchema = 'rest_unknown_schema',
  NotAcceptable = 'rest_not_acceptable',
  UnsupportedMediaType = 'rest_unsupported_media_type',
  SingularityViolation = 'rest_singularity_violation',
  RelationshipNotFound = 'rest_relationship_not_found',
  ColumnNotFound = 'rest_column_not_found',
  TableNotFound = 'rest_table_not_found',
  JwtInvalid = 'rest_jwt_invalid',
  JwtExpired = 'rest_jwt_expired',
  /** 42501 for a caller without a token. */
  DbPermissionDeniedAnon = 'db_permission_denied_anon',
  /** 42501 for a signed-in caller or a key. */
  DbPermissionDenied = 'db_permission_denied',
  /** 23505, 23503, 23P01. */
  DbConflict = 'db_conflict',
  /** 42703, 42883 and column references the query parser let through. */
  DbUndefined = 'db_undefined',
  DbUndefinedTable = 'db_undefined_table',
  /** 57014: statement_timeout. */
  DbTimeout = 'db_timeout',
  /** Other 22xxx (data exceptions) and 23xxx (constraint violations). */
  DbInvalidData = 'db_invalid_data',
  /** Other 42xxx: a statement PostgreSQL cannot take as asked (42804 datatype mismatch, 42P18, 42601 syntax). */
  DbInvalidQuery = 'db_invalid_query',
}

export class PostgrestError extends DomainError<RestErrorCode> {
  constructor(
    code: RestErrorCode,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
    /** PostgreSQL's SQLSTATE for the Db* codes: shown as the wire `code`. */
    readonly sqlstate?: string,
  ) {
    super(code, message);
  }
}
