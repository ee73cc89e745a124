import { groupsOf, mapGroups, safeReturnTo } from './oidc-mapping';

const config = {
  roleMap: new Map([
    ['rmm-admins', 'admin'],
    ['rmm-techs', 'technician'],
    ['rmm-view', 'viewer'],
    ['acme-techs', 'technician'],
  ] as const),
  clientMap: new Map<string, number[]>([
    ['acme-techs', [3]],
    ['globex', [5, 6]],
  ]),
};

describe('groups to role and clients', () => {
  it('takes the highest role any group maps to', () => {
    expect(mapGroups(['rmm-view', 'rmm-admins', 'rmm-techs'], config).role).toBe('admin');
    expect(mapGroups(['rmm-view', 'other'], config).role).toBe('viewer');
  });

  it('gives no role (no access) when no group maps', () => {
    expect(mapGroups(['marketing'], config)).toEqual({ role: null, clients: null });
    expect(mapGroups([], config).role).toBeNull();
  });

  it('limits to the union of the client-map groups the user is in; none of them: every client', () => {
    expect(mapGroups(['acme-techs', 'globex'], config)).toEqual({ role: 'technician', clients: [3, 5, 6] });
    expect(mapGroups(['rmm-techs'], config).clients).toBeNull();
    // a client-map group alone gives clients but no role: no access
    expect(mapGroups(['globex'], config)).toEqual({ role: null, clients: [5, 6] });
  });

  it('reads the groups claim as an array of strings or a single string', () => {
    expect(groupsOf(['a', 1, 'b', null])).toEqual(['a', 'b']);
    expect(groupsOf('rmm-techs')).toEqual(['rmm-techs']);
    expect(groupsOf(undefined)).toEqual([]);
    expect(groupsOf({ a: 1 })).toEqual([]);
  });
});

describe('return_to', () => {
  it('keeps a console path', () => {
    expect(safeReturnTo('/app/agents/5?tab=checks')).toBe('/app/agents/5?tab=checks');
  });

  it.each([undefined, 5, '', '/', '/app', '//evil.example/app/', '/app//evil.example', '/app/\\evil', 'https://evil.example/app/', '/api/v3/keys/', '/app/sign-in?error=x', '/app/\nx'])(
    'sends %p to /app/',
    (value) => {
      expect(safeReturnTo(value)).toBe('/app/');
    },
  );
});
