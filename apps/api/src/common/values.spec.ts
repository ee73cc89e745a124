import { isUuid, iso, parseId, PG_INT_MAX } from './values';

describe('parseId', () => {
  it('reads 1 … 2147483647 written in digits', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('42')).toBe(42);
    expect(parseId(String(PG_INT_MAX))).toBe(PG_INT_MAX);
  });
  it.each(['0', '-1', '2147483648', '9999999999', '12345678901', '1.5', '1e3', ' 1', '0x10', '', 'abc'])('names no id in %j', (text) => {
    expect(parseId(text)).toBeNull();
  });
  it('names no id in a missing value', () => {
    expect(parseId(undefined)).toBeNull();
    expect(parseId(null)).toBeNull();
  });
  it('reads a whole number in range and nothing else (path parameters arrive converted)', () => {
    expect(parseId(17)).toBe(17);
    for (const n of [0, -3, 1.5, Number.NaN, Infinity, PG_INT_MAX + 1]) expect(parseId(n)).toBeNull();
  });
});

describe('isUuid and iso', () => {
  it('accepts a UUID in either case and nothing else', () => {
    expect(isUuid('3f2b8c1e-9a4d-4c2b-8e7f-0123456789ab')).toBe(true);
    expect(isUuid('3F2B8C1E-9A4D-4C2B-8E7F-0123456789AB')).toBe(true);
    expect(isUuid('3f2b8c1e-9a4d-4c2b-8e7f-0123456789a')).toBe(false);
    expect(isUuid(42)).toBe(false);
  });
  it('writes dates as ISO 8601 UTC and keeps null', () => {
    expect(iso(new Date(Date.UTC(2026, 10, 23, 12, 0, 0)))).toBe('2026-11-23T12:00:00.000Z');
    expect(iso(null)).toBeNull();
    expect(iso(undefined)).toBeNull();
  });
});
