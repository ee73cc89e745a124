import { ErrorSurface } from './common/errors/error-surfaces';
import { functionErrorSurface } from './enroll/enroll-error.surface';
import { authErrorSurface } from './platform/auth/auth-error.surface';
import { restErrorSurface } from './platform/rest/rest-error.surface';
import { rmmErrorSurface } from './rmm/rmm-error.surface';

/** Error formats by path prefix, most specific first (see common/errors/error-surfaces.ts). */
export const ERROR_SURFACES: ErrorSurface[] = [rmmErrorSurface, functionErrorSurface, authErrorSurface, restErrorSurface];
