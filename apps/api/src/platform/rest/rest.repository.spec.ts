import { PostgrestError, RestErrorCode } from '../common/platform-errors';
import { REST_ERRORS } from './rest-error.surface';
import { classify, toPostgrestError } from './rest.repository';

const user = { role: 'authenticated' as const, claims: { role: 'authenticated' } };

describe('rest.repository: SQLSTATEs as PostgREST answers them', () => {
  it.each([
    ['42804', 'datatype_mismatch'],
    ['42883', 'undefined_function'],
    ['42P18', 'indeterminate_datatype'],
    ['42601', 'syntax_error'],
    ['42846', 'cannot_coerce'],
    ['22P02', 'invalid_text_representation'],
    ['22003', 'numeric_value_out_of_range'],
    ['22007', 'invalid_datetime_format'],
    ['22P05', 'untranslatable_character'],
    ['2201B', 'invalid_regular_expression'],
    ['2201W', 'invalid_row_count_in_limit_clause'],
    ['22021', 'character_not_in_repertoire'],
    ['23514', 'check_violation'],
  ])('%s (%s) is a 400 that keeps its SQLSTATE', (sqlstate) => {
    const code = classify(sqlstate, user);
    expect(code).toBeDefined();
    expect(REST_ERRORS[code!].status).toBe(400);
    const err = toPostgrestError({ driverError: { code: sqlstate, message: 'm', detail: 'd' } }, user) as PostgrestError;
    expect(err).toBeInstanceOf(PostgrestError);
    expect(err).toMatchObject({ sqlstate, message: 'm', details: 'd' });
  });

  it('keeps permissions, conflicts, missing tables and timeouts apart, and faults as faults', () => {
    expect(classify('42501', { role: 'anon', claims: {} })).toBe(RestErrorCode.DbPermissionDeniedAnon);
    expect(classify('42501', user)).toBe(RestErrorCode.DbPermissionDenied);
    expect(classify('23505', user)).toBe(RestErrorCode.DbConflict);
    expect(classify('42P01', user)).toBe(RestErrorCode.DbUndefinedTable);
    expect(classify('57014', user)).toBe(RestErrorCode.DbTimeout);
    for (const fault of ['08006', '53300', '54000', 'XX000', '42P17']) expect(classify(fault, user)).toBeUndefined();
    const raw = new Error('boom');
    expect(toPostgrestError(raw, user)).toBe(raw);
  });
});
