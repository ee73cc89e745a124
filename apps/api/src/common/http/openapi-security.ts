/**
 * The names of the OpenAPI security schemes, which the controllers name in their decorators and the document
 * (openapi/swagger.ts) declares. Here, in common/, so that the features need not import the document's assembly.
 */
export const API_KEY_SECURITY = 'api-key';
export const USER_JWT_SECURITY = 'user-jwt';
/** The data platform's `apikey` header (DATA_ANON_KEY or DATA_SERVICE_ROLE_KEY). */
export const DATA_KEY_SECURITY = 'data-key';
/** A deployment's uuid as the bearer token: what the agent's installer carries to register. */
export const DEPLOYMENT_TOKEN_SECURITY = 'deployment-token';
/** The console's session cookie `rmm_session` (POST /api/v3/auth/login sets it). */
export const SESSION_COOKIE_SECURITY = 'session-cookie';
