import { keyExpiry } from './key-expiry';

const now = new Date('2026-11-23T12:00:00Z');
const fieldsOf = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return (err as { fields: unknown }).fields;
  }
  throw new Error('did not throw');
};

describe('keyExpiry', () => {
  it('is null when neither is given: the key does not expire', () => {
    expect(keyExpiry(now, {})).toBeNull();
  });
  it('adds a duration to now', () => {
    expect(keyExpiry(now, { expiresIn: '30d' })).toEqual(new Date('2026-12-23T12:00:00Z'));
    expect(keyExpiry(now, { expiresIn: '90m' })).toEqual(new Date('2026-11-23T13:30:00Z'));
  });
  it('takes a time that lies ahead', () => {
    expect(keyExpiry(now, { expiresAt: '2027-01-01T00:00:00Z' })).toEqual(new Date('2027-01-01T00:00:00Z'));
  });
  it('refuses both at once, naming expires_in', () => {
    expect(fieldsOf(() => keyExpiry(now, { expiresIn: '1d', expiresAt: '2027-01-01T00:00:00Z' }))).toEqual([
      { field: 'expires_in', message: 'give expires_at or expires_in, not both' },
    ]);
  });
  it('refuses a time that is not ahead, naming expires_at', () => {
    expect(fieldsOf(() => keyExpiry(now, { expiresAt: '2026-11-23T12:00:00Z' }))).toEqual([{ field: 'expires_at', message: 'must be in the future' }]);
    expect(fieldsOf(() => keyExpiry(now, { expiresAt: 'not a date' }))).toEqual([{ field: 'expires_at', message: 'must be in the future' }]);
  });
  it('refuses a malformed duration, naming the field it came in', () => {
    expect(fieldsOf(() => keyExpiry(now, { expiresIn: 'soon' }))).toEqual([{ field: 'expires_in', message: 'invalid duration (use e.g. 30d, 12h, 90m)' }]);
    expect(fieldsOf(() => keyExpiry(now, { expiresIn: '0d' }))).toEqual([{ field: 'expires_in', message: 'must be positive' }]);
  });
});
