import { DomainError } from '../common/errors/domain-error';

/** The function's error messages, exactly as the spec's Errors table words them. */
export enum EnrollErrorCode {
  MethodNotAllowed = 'method_not_allowed',
  MissingBearer = 'missing_bearer',
  InvalidUserToken = 'invalid_user_token',
  ProfileNotFound = 'profile_not_found',
  InvalidJson = 'invalid_json',
  FieldsRequired = 'fields_required',
  DeploymentFailed = 'deployment_failed',
  DataPlatformUnavailable = 'data_platform_unavailable',
  EnrollmentNotFound = 'enrollment_not_found',
  DeploymentUuidRequired = 'deployment_uuid_required',
  /** hostname or platform too long, or holding control characters (the message says which). */
  InvalidField = 'invalid_field',
  /** The caller's per-user budget (enrollments, or requests to the data platform and functions) is spent. */
  TooManyRequests = 'too_many_requests',
}

const MESSAGES: Record<EnrollErrorCode, string> = {
  [EnrollErrorCode.MethodNotAllowed]: 'Method not allowed',
  [EnrollErrorCode.MissingBearer]: 'Missing Bearer token',
  [EnrollErrorCode.InvalidUserToken]: 'Invalid user token',
  [EnrollErrorCode.ProfileNotFound]: 'User profile not found',
  [EnrollErrorCode.InvalidJson]: 'Invalid JSON body',
  [EnrollErrorCode.FieldsRequired]: 'hostname and platform are required',
  [EnrollErrorCode.DeploymentFailed]: 'Deployment creation failed',
  [EnrollErrorCode.DataPlatformUnavailable]: 'Data platform unavailable',
  [EnrollErrorCode.EnrollmentNotFound]: 'Enrollment not found',
  [EnrollErrorCode.DeploymentUuidRequired]: 'deployment_uuid is required',
  [EnrollErrorCode.InvalidField]: 'hostname or platform is not acceptable',
  [EnrollErrorCode.TooManyRequests]: 'Too many requests',
};

/** An answer of the function that is not a 200: rendered as `{error: message}` with the CORS headers (enroll-error.surface.ts). */
export class EnrollError extends DomainError<EnrollErrorCode> {
  constructor(code: EnrollErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(code, message ?? MESSAGES[code], [], headers);
  }
}
