import fc from 'fast-check';
import { PostgrestError } from '../common/platform-errors';
import { REST_ERRORS } from './rest-error.surface';
import { FILTER_LIMITS, parseAccept, parseFilter, parseInList, parseOrder, parsePrefer, parseQuery } from './rest-query';
import { RestTable } from './rest-tables';

const table: RestTable = {
  name: 'user_profiles',
  columns: new Set(['id', 'rmm_agent_id', 'rmm_client_id']),
  primaryKey: ['id'],
  types: new Map([
    ['id', 'uuid'],
    ['rmm_agent_id', 'integer'],
    ['rmm_client_id', 'integer'],
  ]),
};

/** Quotes a value the way postgrest-js's .in() does. */
const quote = (v: string): string => (/[,()"\\]/.test(v) || v !== v.trim() || v === '' ? `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : v);

describe('rest-query', () => {
  it('parses in-lists, quoted values included, back to the values a client quoted', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 6 }), (vals) => {
        expect(parseInList(`(${vals.map(quote).join(',')})`)).toEqual(vals);
      }),
    );
    expect(parseInList('()')).toEqual([]);
  });

  it('never throws anything but a PostgrestError on arbitrary filter text', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        try {
          parseFilter(table, 'rmm_agent_id', raw);
        } catch (err) {
          expect(err).toBeInstanceOf(PostgrestError);
          expect(REST_ERRORS[(err as PostgrestError).code].status).toBe(400);
        }
      }),
    );
  });

  it('reads not., is. and values with dots', () => {
    expect(parseFilter(table, 'id', 'eq.a.b.c')).toEqual({ column: 'id', negate: false, op: 'eq', value: 'a.b.c' });
    expect(parseFilter(table, 'rmm_agent_id', 'not.is.null')).toEqual({ column: 'rmm_agent_id', negate: true, op: 'is', value: 'null' });
    expect(() => parseFilter(table, 'password', 'eq.1')).toThrow('column user_profiles.password does not exist');
  });

  it('reads order terms and refuses unknown modifiers', () => {
    expect(parseOrder(table, 'rmm_agent_id.desc.nullslast,id')).toEqual([
      { column: 'rmm_agent_id', dir: 'desc', nulls: 'last' },
      { column: 'id', dir: 'asc' },
    ]);
    expect(() => parseOrder(table, 'id.up')).toThrow(PostgrestError);
  });

  it('treats every non-reserved key as a filter', () => {
    const q = parseQuery(table, { select: 'id', id: 'eq.x', rmm_agent_id: ['gt.1', 'lt.9'], limit: '5', apikey: 'k' });
    expect(q.filters).toHaveLength(3);
    expect(q.limit).toBe(5);
    expect(q.select).toEqual([{ column: 'id', alias: 'id' }]);
  });

  it('reads Prefer and Accept as PostgREST does', () => {
    expect(parsePrefer('return=representation, count=exact')).toEqual({ return: 'representation', count: true });
    expect(parsePrefer(undefined)).toEqual({ return: 'minimal', count: false });
    expect(parsePrefer('resolution=merge-duplicates,unknown=1').resolution).toBe('merge-duplicates');
    expect(parseAccept('application/vnd.pgrst.object+json')).toBe('object');
    expect(parseAccept('application/json, text/plain, */*')).toBe('array');
    expect(parseAccept(undefined)).toBe('array');
    expect(() => parseAccept('text/csv')).toThrow(PostgrestError);
  });

  it('bounds filter values, like/ilike patterns and their wildcards (400 PGRST100, the value not echoed whole)', () => {
    const refused = (col: string, raw: string): PostgrestError => {
      try {
        parseFilter(table, col, raw);
      } catch (err) {
        return err as PostgrestError;
      }
      throw new Error(`accepted ${raw.slice(0, 40)}`);
    };
    expect(parseFilter(table, 'id', `eq.${'a'.repeat(FILTER_LIMITS.valueLength)}`).value).toHaveLength(1024);
    const long = refused('id', `eq.${'a'.repeat(FILTER_LIMITS.valueLength + 1)}`);
    expect(long).toMatchObject({ code: 'rest_parse_error', details: 'filter values are limited to 1024 characters' });
    expect(long.message.length).toBeLessThan(120);
    expect(refused('id', `in.(${'a,'.repeat(600)}a)`).details).toMatch(/1024 characters/);
    expect(parseFilter(table, 'id', `like.*${'H'.repeat(250)}*`).op).toBe('like');
    expect(refused('id', `like.*${'H'.repeat(12_000)}b*`).details).toBe('like and ilike patterns are limited to 256 characters');
    expect(refused('id', `not.ilike.${'H'.repeat(257)}`).details).toMatch(/256 characters/);
    expect(parseFilter(table, 'id', 'like.*a*b*c*d%e%f%g*h').op).toBe('like');
    expect(refused('id', 'ilike.*a*b*c*d*e*f*g*h*i').details).toBe('like and ilike patterns may hold at most 8 wildcards (* or %)');
    // Characters, not UTF-16 units: 256 emoji are a pattern of 256 characters.
    expect(parseFilter(table, 'id', `like.${'😀'.repeat(256)}`).op).toBe('like');
  });

  it('refuses is.true/false/unknown on a column that is not boolean, as PostgreSQL would (42804), before any SQL', () => {
    for (const v of ['true', 'false', 'unknown', 'TRUE']) {
      expect(() => parseFilter(table, 'rmm_agent_id', `is.${v}`)).toThrow(`argument of IS ${v.toUpperCase()} must be type boolean, not type integer`);
      expect(() => parseFilter(table, 'id', `not.is.${v}`)).toThrow('not type uuid');
    }
    expect(parseFilter(table, 'rmm_agent_id', 'is.null').value).toBe('null');
    const flag: RestTable = { ...table, columns: new Set([...table.columns, 'enabled']), types: new Map([...table.types, ['enabled', 'boolean']]) };
    expect(parseFilter(flag, 'enabled', 'is.true')).toEqual({ column: 'enabled', negate: false, op: 'is', value: 'true' });
  });
});
