import { API_KEY_SCOPES } from '@app/entities';
import { normaliseScopes, parseDuration } from './api-keys.service';

/** What `fn` throws (fails the test when it throws nothing). */
function thrown(fn: () => unknown): { message: string; fields: { field: string; message: string }[] } {
  try {
    fn();
  } catch (err) {
    return err as { message: string; fields: { field: string; message: string }[] };
  }
  throw new Error('expected a throw');
}

describe('parseDuration', () => {
  it.each([
    ['3600s', 3_600_000],
    ['90m', 5_400_000],
    ['12h', 43_200_000],
    ['30d', 2_592_000_000],
    ['2w', 1_209_600_000],
    ['1s', 1_000],
    [' 7d ', 604_800_000],
    ['7 d', 604_800_000],
  ])('reads %j as %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['30 days', '30', 'd', '1.5h', '-1d', '10y', '10D', '', '1h30m', 'PT1H'])('refuses %j, naming expires_in', (text) => {
    const err = thrown(() => parseDuration(text));
    expect(err.message).toBe(`invalid duration "${text}" (use e.g. 30d, 12h, 90m)`);
    expect(err.fields).toEqual([{ field: 'expires_in', message: expect.stringMatching(/^invalid duration/) }]);
  });

  it.each(['0s', '0d', '000w'])('refuses the empty duration %j: it must be positive', (text) => {
    const err = thrown(() => parseDuration(text));
    expect(err.message).toBe('duration must be positive');
    expect(err.fields).toEqual([{ field: 'expires_in', message: 'must be positive' }]);
  });
});

describe('normaliseScopes', () => {
  it('keeps known scopes in the order given', () => {
    expect(normaliseScopes(['deployments:write', 'agents:read'])).toEqual(['deployments:write', 'agents:read']);
  });

  it('accepts every documented scope', () => {
    expect(normaliseScopes(API_KEY_SCOPES)).toEqual([...API_KEY_SCOPES]);
  });

  it('trims, drops empty entries and duplicates', () => {
    expect(normaliseScopes([' agents:read', 'agents:read ', '', '  ', 'admin', 'admin'])).toEqual(['agents:read', 'admin']);
  });

  it('refuses unknown scopes, naming them all and the allowed ones', () => {
    const err = thrown(() => normaliseScopes(['agents:read', 'root', 'Agents:Read']));
    expect(err.message).toBe(`unknown scope root, Agents:Read (allowed: ${API_KEY_SCOPES.join(', ')})`);
    expect(err.fields).toEqual([{ field: 'scopes', message: 'unknown scope root, Agents:Read' }]);
  });

  it.each([[[]], [['']], [[' ', '\t']]])('refuses %j: at least one scope is required', (scopes) => {
    const err = thrown(() => normaliseScopes(scopes));
    expect(err.message).toBe('at least one scope is required');
    expect(err.fields).toEqual([{ field: 'scopes', message: 'at least one scope is required' }]);
  });
});
