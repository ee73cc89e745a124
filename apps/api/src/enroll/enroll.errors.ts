import { DomainError, ErrorKind } from '../common/errors/domain-error';

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
}

const ERRORS: Record<EnrollErrorCode, { kind: ErrorKind; message: string }> = {
  [EnrollErrorCode.MethodNotAllowed]: { kind: ErrorKind.MethodNotAllowed, message: 'Method not allowed' },
  [EnrollErrorCode.MissingBearer]: { kind: ErrorKind.Unauthorized, message: 'Missing Bearer token' },
  [EnrollErrorCode.InvalidUserToken]: { kind: ErrorKind.Unauthorized, message: 'Invalid user token' },
  [EnrollErrorCode.ProfileNotFound]: { kind: ErrorKind.NotFound, message: 'User profile not found' },
  [EnrollErrorCode.InvalidJson]: { kind: ErrorKind.Validation, message: 'Invalid JSON body' },
  [EnrollErrorCode.FieldsRequired]: { kind: ErrorKind.Validation, message: 'hostname and platform are required' },
  [EnrollErrorCode.DeploymentFailed]: { kind: ErrorKind.BadGateway, message: 'Deployment creation failed' },
  [EnrollErrorCode.DataPlatformUnavailable]: { kind: ErrorKind.BadGateway, message: 'Data platform unavailable' },
  [EnrollErrorCode.EnrollmentNotFound]: { kind: ErrorKind.NotFound, message: 'Enrollment not found' },
  [EnrollErrorCode.DeploymentUuidRequired]: { kind: ErrorKind.Validation, message: 'deployment_uuid is required' },
};

/** An answer of the function that is not a 200: rendered as `{error: message}` with the CORS headers. */
export class EnrollError extends DomainError {
  constructor(
    readonly code: EnrollErrorCode,
    message?: string,
  ) {
    super(ERRORS[code].kind, message ?? ERRORS[code].message);
  }
}
