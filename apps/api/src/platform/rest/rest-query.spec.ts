import fc from 'fast-check';
import { PostgrestError } from '../platform-errors';
import { REST_ERRORS } from './rest-error.surface';
import { parseAccept, parseFilter, parseInList, parseOrder, parsePrefer, parseQuery } from './rest-query';
import { RestTable } from './rest-tables';

const table: RestTable = { name: 'user_profiles', columns: new Set(['id', 'rmm_agent_id', 'rmm_client_id']), primaryKey: ['id'] };

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
});
