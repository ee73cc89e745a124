import { normalizeTag, normalizeTags } from './agent-tags';

describe('agent tags', () => {
  it('stores a tag trimmed and lowercase, letters of any script included', () => {
    expect(normalizeTag(' Finance ')).toBe('finance');
    expect(normalizeTag('Site:Paris_2.a-b')).toBe('site:paris_2.a-b');
    expect(normalizeTag('Ünïcode Ω')).toBe('ünïcode ω');
    expect(normalizeTag('x'.repeat(64))).toBe('x'.repeat(64));
  });

  it.each([[''], ['   '], ['a/b'], ['x'.repeat(65)], ['emoji 🎉'], [42], [null]])('refuses %p', (raw) => {
    expect(normalizeTag(raw)).toBeNull();
  });

  it('sorts and de-duplicates, and names every tag it refuses', () => {
    expect(normalizeTags(['b', 'A', 'a', 'B '], 'tags')).toEqual({ tags: ['a', 'b'], errors: [] });
    expect(normalizeTags(['ok', 'no/way', ''], 'add').errors).toEqual([
      { field: 'add', message: '"no/way" is not a tag: 1–64 characters of letters, digits, space and _ . : -' },
      { field: 'add', message: '"" is not a tag: 1–64 characters of letters, digits, space and _ . : -' },
    ]);
  });

  it('counts the limit after de-duplication', () => {
    const fifty = Array.from({ length: 50 }, (_, i) => `t${i}`);
    expect(normalizeTags([...fifty, 'T0'], 'tags').errors).toEqual([]);
    expect(normalizeTags([...fifty, 'extra'], 'tags').errors).toEqual([{ field: 'tags', message: 'at most 50 tags' }]);
  });
});
