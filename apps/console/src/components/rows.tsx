import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorNote, Loading } from './bits';

/** The Show/Hide button of a row whose details open below it. */
export function ShowHide({ open, toggle, what }: { open: boolean; toggle: () => void; what: string }) {
  return (
    <button type="button" className="secondary outline small" aria-expanded={open} onClick={toggle}>
      {open ? 'Hide' : 'Show'}
      <span className="visually-hidden"> {what}</span>
    </button>
  );
}

/** The row under an opened one: its query's items as a list (loading, error and empty said as such). */
export function DetailRow<T extends { id: number }>({
  query,
  what,
  empty,
  colSpan = 5,
  children,
}: {
  query: UseQueryResult<T[]>;
  what: string;
  empty: string;
  colSpan?: number;
  children: (item: T) => ReactNode;
}) {
  return (
    <tr className="detail">
      <td colSpan={colSpan}>
        {query.isPending ? (
          <Loading what={what} />
        ) : query.isError ? (
          <ErrorNote error={query.error} />
        ) : query.data.length === 0 ? (
          <p className="muted">{empty}</p>
        ) : (
          <ol className="history">
            {query.data.map((item) => (
              <li key={item.id}>{children(item)}</li>
            ))}
          </ol>
        )}
      </td>
    </tr>
  );
}
