import { auditedSurface, cliOutcome, cliTarget, requestedPath, routeAction } from './audit-entry';

describe('audit entries', () => {
  it('names an action by method and route pattern, with the README trailing slash under /api/v3', () => {
    expect(routeAction('POST', '/api/v3/clients')).toBe('POST /api/v3/clients/');
    expect(routeAction('DELETE', '/api/v3/clients/:id')).toBe('DELETE /api/v3/clients/{id}/');
    expect(routeAction('PUT', '/api/v3/clients/:id/sites/:site_id/')).toBe('PUT /api/v3/clients/{id}/sites/{site_id}/');
    expect(routeAction('DELETE', '/auth/v1/admin/users/:id')).toBe('DELETE /auth/v1/admin/users/{id}');
  });

  it('audits /api/v3 and /auth/v1/admin routes only, and nothing that matched no route', () => {
    expect(auditedSurface('/api/v3/keys')).toBe('rmm');
    expect(auditedSurface('/auth/v1/admin/users')).toBe('platform-admin');
    expect(auditedSurface('/auth/v1/token')).toBeUndefined();
    expect(auditedSurface('/rest/v1/:table')).toBeUndefined();
    expect(auditedSurface('/api/v30/x')).toBeUndefined();
    expect(auditedSurface(undefined)).toBeUndefined();
  });

  it('keeps the path as requested without its query string (the data platform takes apikey there)', () => {
    expect(requestedPath('/auth/v1/admin/users?apikey=sb_secret_abc')).toBe('/auth/v1/admin/users');
    expect(requestedPath(`/api/v3/${'x'.repeat(5000)}`)).toHaveLength(1000);
  });

  it('keeps CLI flags and harmless values, and never a password, whatever its spelling', () => {
    expect(cliTarget(['--email', 'a@b.c', '--password', 'hunter2', '--client', '1'])).toBe('--email a@b.c --password [redacted] --client 1');
    expect(cliTarget(['--password=hunter2', '--email=a@b.c'])).toBe('--password=[redacted] --email=a@b.c');
    expect(cliTarget(['--pasword', 'hunter2'])).toBe('--pasword [redacted]');
    expect(cliTarget(['7'])).toBe('7');
    expect(cliTarget(['hunter2'])).toBe('[redacted]');
    expect(cliTarget(['--name', 'ops', '--scopes', 'admin', '--expires-in', '30d'])).toBe('--name ops --scopes admin --expires-in 30d');
  });

  it("answers 'ok' or 'error: <first line>' without any value the target hides", () => {
    expect(cliOutcome([])).toBe('ok');
    expect(cliOutcome(['--password', 'hunter2'], new Error('weak password hunter2\nmore'))).toBe('error: weak password [redacted]');
    expect(cliOutcome(['99'], new Error('Not found'))).toBe('error: Not found');
  });
});
