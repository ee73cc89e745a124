import pino from 'pino';
import { ERROR_SURFACES } from './error-surfaces';
import { FUNCTION_STATUS } from './enroll/enroll-error.surface';
import { EnrollError, EnrollErrorCode } from './enroll/enroll.errors';
import { AUTH_ERRORS } from './platform/auth/auth-error.surface';
import { AuthError, AuthErrorCode, GatewayError, GatewayErrorCode, PostgrestError, RestErrorCode } from './platform/common/platform-errors';
import { REST_ERRORS } from './platform/rest/rest-error.surface';
import { UsersErrorCode } from './platform/users/users.errors';
import { AgentsErrorCode } from './rmm/fleet/agent-channel/agent-channel.errors';
import { ClientsErrorCode } from './rmm/tenancy/clients/clients.errors';
import { DeploymentsErrorCode } from './rmm/fleet/deployments/deployments.errors';
import { RMM_STATUS } from './rmm/rmm-error.surface';
import { ScriptsErrorCode } from './rmm/automation/scripts/scripts.errors';
import { CommonErrorCode, DomainError, invalid } from './common/errors/domain-error';
import { renderError } from './common/errors/global-exception.filter';

const lines: string[] = [];
const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(l) });
const render = (err: unknown, url: string, headers: Record<string, string> = {}) => renderError(ERROR_SURFACES, logger, err, url, headers);

beforeEach(() => {
  lines.length = 0;
});

describe('the /api/v3 surface table', () => {
  const codes = [CommonErrorCode, ClientsErrorCode, ScriptsErrorCode, DeploymentsErrorCode, AgentsErrorCode].flatMap((e) => Object.values(e));

  it.each(codes)('answers %s with the status of its row and a {detail} body', (code) => {
    const r = render(new DomainError(code, `reason for ${code}`), '/api/v3/agents/');
    expect(r.status).toBe(RMM_STATUS[code as keyof typeof RMM_STATUS]);
    expect(r.status).toBeLessThan(600);
    expect(Object.keys(r.body as object)).toContain('detail');
  });

  it('uses the spec fixed texts, keeps a refused action\'s reason and lists the fields of a validation error', () => {
    expect(render(new DomainError(CommonErrorCode.NotFound, 'no agent 7'), '/api/v3/agents/7/').body).toEqual({ detail: 'Not found' });
    expect(render(new DomainError(CommonErrorCode.Unauthorized, 'x'), '/api/v3/clients/')).toMatchObject({ status: 401, body: { detail: 'Invalid token' } });
    expect(render(new DomainError(CommonErrorCode.Forbidden, 'x'), '/api/v3/clients/')).toMatchObject({ status: 403, body: { detail: 'permission denied' } });
    expect(render(new DomainError(ClientsErrorCode.ClientHasAgents, 'client 3 still has 2 agent(s)'), '/api/v3/clients/3/')).toEqual(
      expect.objectContaining({ status: 400, body: { detail: 'client 3 still has 2 agent(s)' } }),
    );
    expect(render(invalid('validation error', [{ field: 'site_name', message: 'must not be empty' }]), '/api/v3/clients/').body).toEqual({
      detail: 'validation error',
      errors: [{ field: 'site_name', message: 'must not be empty' }],
    });
    expect(render(new DomainError(AgentsErrorCode.NotConnected, 'agent is not connected'), '/api/v3/agents/1/runscript/')).toMatchObject({
      status: 409,
      body: { detail: 'agent is not connected' },
    });
    expect(render(new DomainError(DeploymentsErrorCode.Revoked, 'deployment revoked'), '/deploy/abc')).toMatchObject({ status: 410 });
  });

  it('answers a code that has no row as a logged 500 {detail: server error}, never the message', () => {
    const r = render(new DomainError(EnrollErrorCode.DeploymentFailed, 'secret internals'), '/api/v3/clients/');
    expect(r).toMatchObject({ status: 500, body: { detail: 'server error' } });
    expect(lines.join('\n')).toContain('error code without a status on this surface');
  });

  it('answers an unexpected error as 500 and logs it', () => {
    expect(render(new Error('boom'), '/api/v3/clients/')).toMatchObject({ status: 500, body: { detail: 'server error' } });
    expect(lines.some((l) => l.includes('request failed') && l.includes('boom'))).toBe(true);
  });
});

describe('the function surface table', () => {
  it.each(Object.values(EnrollErrorCode))('answers %s with its status and {error: message}', (code) => {
    const r = render(new EnrollError(code), '/functions/v1/enroll-rmm');
    expect(r.status).toBe(FUNCTION_STATUS[code]);
    expect(r.body).toEqual({ error: expect.any(String) });
  });

  it('follows the spec\'s Errors table', () => {
    expect(render(new EnrollError(EnrollErrorCode.MethodNotAllowed), '/functions/v1/enroll-rmm')).toMatchObject({ status: 405, body: { error: 'Method not allowed' } });
    expect(render(new EnrollError(EnrollErrorCode.MissingBearer), '/functions/v1/enroll-rmm')).toMatchObject({ status: 401, body: { error: 'Missing Bearer token' } });
    expect(render(new EnrollError(EnrollErrorCode.ProfileNotFound), '/functions/v1/enroll-rmm')).toMatchObject({ status: 404, body: { error: 'User profile not found' } });
    expect(render(new EnrollError(EnrollErrorCode.InvalidJson), '/functions/v1/enroll-rmm')).toMatchObject({ status: 400, body: { error: 'Invalid JSON body' } });
    expect(render(new EnrollError(EnrollErrorCode.DeploymentFailed), '/functions/v1/enroll-rmm')).toMatchObject({ status: 502 });
  });
});

describe('the /auth/v1 surface table', () => {
  const codes = [CommonErrorCode, GatewayErrorCode, AuthErrorCode, UsersErrorCode].flatMap((e) => Object.values(e));

  it.each(codes)('answers %s with its status and GoTrue error_code', (code) => {
    const row = AUTH_ERRORS[code as keyof typeof AUTH_ERRORS];
    const r = render(new DomainError(code, 'why'), '/auth/v1/token');
    expect(r.status).toBe(row.status);
    expect(r.body).toEqual(row.errorCode === null ? { message: 'why' } : { code: row.status, error_code: row.errorCode, msg: 'why' });
  });

  it('answers a versioned request {code, message} with the version header', () => {
    const r = render(new AuthError(AuthErrorCode.InvalidCredentials, 'Invalid login credentials'), '/auth/v1/token', { 'x-supabase-api-version': '2024-01-01' });
    expect(r).toMatchObject({ status: 400, body: { code: 'invalid_credentials', message: 'Invalid login credentials' }, headers: { 'x-supabase-api-version': '2024-01-01' } });
  });

  it('keeps GoTrue\'s two statuses of user_not_found apart, and the gateway\'s bare {message}', () => {
    expect(render(new AuthError(AuthErrorCode.TokenUserNotFound, 'x'), '/auth/v1/user')).toMatchObject({ status: 403, body: { error_code: 'user_not_found' } });
    expect(render(new AuthError(AuthErrorCode.UserNotFound, 'x'), '/auth/v1/admin/users/1')).toMatchObject({ status: 404, body: { error_code: 'user_not_found' } });
    expect(render(new GatewayError(GatewayErrorCode.NoApiKey), '/auth/v1/token')).toEqual(expect.objectContaining({ status: 401, body: { message: 'No API key found in request' } }));
    expect(render(new DomainError(UsersErrorCode.EmailTaken, 'taken'), '/auth/v1/admin/users')).toMatchObject({ status: 422, body: { error_code: 'email_exists' } });
  });
});

describe('the /rest/v1 surface table', () => {
  it.each(Object.values(RestErrorCode))('answers %s with its status and PostgREST wire code', (code) => {
    const r = render(new PostgrestError(code, 'why'), '/rest/v1/enrollment_log');
    expect(r.status).toBe(REST_ERRORS[code].status);
    expect(r.body).toEqual({ code: REST_ERRORS[code].wire, details: null, hint: null, message: 'why' });
  });

  it('shows the SQLSTATE PostgreSQL gave for its own refusals', () => {
    const r = render(new PostgrestError(RestErrorCode.DbInvalidData, 'invalid input syntax for type uuid', null, null, '22P02'), '/rest/v1/user_profiles');
    expect(r).toMatchObject({ status: 400, body: { code: '22P02' } });
  });

  it('answers the gateway refusal as {message} and the common codes with PostgREST bodies', () => {
    expect(render(new GatewayError(GatewayErrorCode.InvalidApiKey), '/rest/v1/x').body).toEqual({ message: 'Invalid API key' });
    for (const code of Object.values(CommonErrorCode)) {
      const r = render(new DomainError(code, 'why'), '/rest/v1/x');
      expect(r.status).toBe(REST_ERRORS[code].status);
      expect(r.body).toMatchObject({ message: 'why' });
    }
  });
});
