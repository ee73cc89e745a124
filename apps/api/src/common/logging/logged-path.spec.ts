import { loggedPath } from './logged-path';

describe('loggedPath (N5: no credential in a log line)', () => {
  const uuid = '3f2a9c1e-7b4d-4e2a-9f10-0a1b2c3d4e5f';

  it('N5: cuts a deployment uuid to its first 8 characters and …, whatever follows or its case', () => {
    expect(loggedPath(`/deploy/${uuid}`)).toBe('/deploy/3f2a9c1e…');
    expect(loggedPath(`/deploy/${uuid}/?platform=windows`)).toBe('/deploy/3f2a9c1e…');
    expect(loggedPath(`/DEPLOY/${uuid.toUpperCase()}`)).toBe('/DEPLOY/3F2A9C1E…');
    expect(loggedPath(`/deploy/${encodeURIComponent(uuid)}`)).not.toContain(uuid);
  });

  it('leaves other paths as they were, without their query string', () => {
    expect(loggedPath('/api/v3/agents/12/?limit=5')).toBe('/api/v3/agents/12/');
    expect(loggedPath('/api/v3/agents/deployments/')).toBe('/api/v3/agents/deployments/');
    expect(loggedPath('/deploy/')).toBe('/deploy/');
    expect(loggedPath('/deployments/x')).toBe('/deployments/x');
  });
});
