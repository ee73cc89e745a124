import { acceptsGzip, etagMatches } from './agent-download';

describe('download headers', () => {
  it('acceptsGzip: gzip listed with q > 0, or *', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('deflate, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('*;q=0.1')).toBe(true);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });

  it('etagMatches: the quoted sha256 (weak or strong) in a list, or *', () => {
    const sha = 'ab'.repeat(32);
    expect(etagMatches(`"${sha}"`, sha)).toBe(true);
    expect(etagMatches(`"x", W/"${sha}"`, sha)).toBe(true);
    expect(etagMatches('*', sha)).toBe(true);
    expect(etagMatches(sha, sha)).toBe(false);
    expect(etagMatches(undefined, sha)).toBe(false);
  });
});
