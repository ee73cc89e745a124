import { argText, checkValue, isDate, shownValue } from './custom-field-rules';

describe('custom field rules', () => {
  it('takes each type as it is, converting nothing', () => {
    expect(checkValue({ type: 'number', options: null }, 3.5)).toEqual({ ok: true, value: 3.5 });
    expect(checkValue({ type: 'number', options: null }, '3')).toEqual({ ok: false, reason: 'must be a finite number' });
    expect(checkValue({ type: 'number', options: null }, Infinity).ok).toBe(false);
    expect(checkValue({ type: 'boolean', options: null }, 'true').ok).toBe(false);
    expect(checkValue({ type: 'text', options: null }, 'x'.repeat(4097))).toEqual({ ok: false, reason: 'at most 4096 characters' });
    expect(checkValue({ type: 'select', options: ['a', 'b'] }, 'c')).toEqual({ ok: false, reason: 'must be one of a, b' });
    expect(checkValue({ type: 'multiselect', options: ['a', 'b'] }, ['b', 'a'])).toEqual({ ok: true, value: ['b', 'a'] });
    expect(checkValue({ type: 'multiselect', options: ['a', 'b'] }, ['a', 'a'])).toEqual({ ok: false, reason: 'must not repeat an option' });
  });

  it('knows real days only', () => {
    expect(isDate('2026-02-28')).toBe(true);
    expect(isDate('2026-02-30')).toBe(false);
    expect(isDate('2026-2-3')).toBe(false);
  });

  it('never shows a secret, and writes lists with commas', () => {
    expect(shownValue('secret', 'hunter2')).toBe('********');
    expect(shownValue('secret', null)).toBeNull();
    expect(argText(['a', 'b'])).toBe('a,b');
    expect(argText(null)).toBe('');
  });
});
