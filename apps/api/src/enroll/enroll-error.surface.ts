import { COMMON_STATUS, CommonErrorCode } from '../common/errors/domain-error';
import { codeTable, ErrorSurface } from '../common/errors/error-surfaces';
import { isFunctionPath } from './enroll-http';
import { EnrollErrorCode } from './enroll.errors';

type FunctionSurfaceCode = CommonErrorCode | EnrollErrorCode;

/** The status of every code the function can answer (the spec's Errors table, plus the status endpoint's). */
export const FUNCTION_STATUS: Record<FunctionSurfaceCode, number> = {
  ...COMMON_STATUS,
  [EnrollErrorCode.MethodNotAllowed]: 405,
  [EnrollErrorCode.MissingBearer]: 401,
  [EnrollErrorCode.InvalidUserToken]: 401,
  [EnrollErrorCode.ProfileNotFound]: 404,
  [EnrollErrorCode.InvalidJson]: 400,
  [EnrollErrorCode.FieldsRequired]: 400,
  [EnrollErrorCode.DeploymentFailed]: 502,
  [EnrollErrorCode.DataPlatformUnavailable]: 502,
  [EnrollErrorCode.EnrollmentNotFound]: 404,
  [EnrollErrorCode.DeploymentUuidRequired]: 400,
  [EnrollErrorCode.InvalidField]: 400,
  [EnrollErrorCode.TooManyRequests]: 429,
};

/** `{error: message}` for everything under /functions/v1 (the spec's error body); CORS headers come from its policy. */
export const functionErrorSurface: ErrorSurface = {
  name: 'function',
  matches: isFunctionPath,
  statusOf: codeTable(FUNCTION_STATUS),
  render: (e) => {
    if (e.source === 'fault') return { status: 500, body: { error: 'Internal server error' } };
    if (e.source === 'http' && e.status === 404) return { status: 404, body: { error: 'Function not found' } };
    return { status: e.status, body: { error: e.message } };
  },
};
