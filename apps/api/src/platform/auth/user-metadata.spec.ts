import { MAX_METADATA_BYTES, MAX_METADATA_DEPTH, metadataProblem } from './user-metadata';

/** `{a: {a: … {}}}` with `levels` objects in all. */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

describe('metadataProblem (user_metadata bounds)', () => {
  it('accepts ordinary metadata, and exactly the maximum depth (the object itself is level 1)', () => {
    expect(metadataProblem({})).toBeNull();
    expect(metadataProblem({ team: 'ops', tags: ['a', 'b'], prefs: { theme: 'dark' } })).toBeNull();
    expect(metadataProblem(nested(MAX_METADATA_DEPTH))).toBeNull();
    expect(MAX_METADATA_DEPTH).toBe(8);
  });

  it('refuses one level more, through objects or arrays', () => {
    expect(metadataProblem(nested(MAX_METADATA_DEPTH + 1))).toMatch(/deeper than 8 levels/);
    let arr: unknown = [];
    for (let i = 1; i < MAX_METADATA_DEPTH + 1; i++) arr = [arr];
    expect(metadataProblem({ list: arr })).toMatch(/deeper than 8 levels/);
  });

  it('measures a 100,000-deep value without recursion (no stack overflow) and quickly', () => {
    const started = Date.now();
    expect(metadataProblem(nested(100_000))).toMatch(/deeper/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses more than 16 KiB of JSON, counting UTF-8 bytes', () => {
    expect(MAX_METADATA_BYTES).toBe(16 * 1024);
    const overhead = JSON.stringify({ s: '' }).length;
    expect(metadataProblem({ s: 'x'.repeat(MAX_METADATA_BYTES - overhead) })).toBeNull();
    expect(metadataProblem({ s: 'x'.repeat(MAX_METADATA_BYTES - overhead + 1) })).toMatch(/larger than 16384 bytes/);
    expect(metadataProblem({ s: 'é'.repeat(MAX_METADATA_BYTES / 2) })).toMatch(/larger/);
  });
});
