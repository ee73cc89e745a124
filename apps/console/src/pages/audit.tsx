import { useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, okPage } from '../api/http';
import type { AuditEntry } from '../api/schemas';
import { ErrorNote, Loading } from '../components/bits';
import { when } from '../components/format';

const PAGE = 100;

/** Who changed what, newest first (admin only). */
export default function AuditPage() {
  const [kind, setKind] = useState<AuditEntry['actor_kind'] | ''>('');
  const [path, setPath] = useState('');
  const [offset, setOffset] = useState(0);
  const entries = useQuery({
    queryKey: ['audit', kind, path, offset],
    queryFn: () => okPage(api.GET('/api/v3/audit', { params: { query: { actor_kind: kind || undefined, path: path.trim() || undefined, limit: PAGE, offset } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <div className="page-head">
        <h1>Audit</h1>
      </div>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Actor
          <select
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as AuditEntry['actor_kind'] | '');
              setOffset(0);
            }}
          >
            <option value="">Anyone</option>
            <option value="operator">Operators</option>
            <option value="api_key">API keys</option>
            <option value="cli">CLI</option>
            <option value="user">Users</option>
            <option value="service_role">Service role</option>
            <option value="anonymous">Anonymous</option>
          </select>
        </label>
        <label>
          Path starts with
          <input
            value={path}
            placeholder="/api/v3/agents/"
            onChange={(e) => {
              setPath(e.target.value);
              setOffset(0);
            }}
          />
        </label>
      </form>
      {entries.isPending ? (
        <Loading what="the audit log" />
      ) : entries.isError ? (
        <ErrorNote error={entries.error} />
      ) : (
        <>
          <div className="table-scroll" tabIndex={0}>
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">From</th>
                </tr>
              </thead>
              <tbody>
                {entries.data.rows.map((e) => (
                  <tr key={e.id}>
                    <td>{when(e.at)}</td>
                    <td>
                      {e.actor_name ?? '—'}
                      <br />
                      <small className="muted">{e.actor_kind.replace(/_/g, ' ')}</small>
                    </td>
                    <td>{e.action}</td>
                    <td>
                      <code>{e.target}</code>
                    </td>
                    <td>{e.outcome}</td>
                    <td>{e.client_address ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {entries.data.rows.length === 0 && <p className="muted">Nothing recorded.</p>}
          <nav className="pager" aria-label="Audit pages">
            <button type="button" className="secondary outline" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              Newer
            </button>
            <span>
              {entries.data.total === 0 ? 0 : offset + 1}–{Math.min(offset + PAGE, entries.data.total)} of {entries.data.total}
            </span>
            <button type="button" className="secondary outline" disabled={offset + PAGE >= entries.data.total} onClick={() => setOffset(offset + PAGE)}>
              Older
            </button>
          </nav>
        </>
      )}
    </>
  );
}
