import { Link } from 'wouter';
import { useScripts } from '../api/queries';
import { useSession } from '../api/session';
import { ErrorNote, Loading } from '../components/bits';

export function ScriptsPage() {
  const { can } = useSession();
  const scripts = useScripts();
  return (
    <>
      <div className="page-head">
        <h1>Scripts</h1>
        {can('scripts:write') && (
          <Link href="/scripts/new" role="button">
            New script
          </Link>
        )}
      </div>
      {scripts.isPending ? (
        <Loading what="scripts" />
      ) : scripts.isError ? (
        <ErrorNote error={scripts.error} />
      ) : scripts.data.length === 0 ? (
        <p className="muted">No scripts yet.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="striped">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Shell</th>
                <th scope="col">Description</th>
                <th scope="col">Default args</th>
                <th scope="col">Timeout</th>
              </tr>
            </thead>
            <tbody>
              {scripts.data.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link href={`/scripts/${s.id}`}>{s.name}</Link>
                  </td>
                  <td>{s.shell}</td>
                  <td>{s.description ?? ''}</td>
                  <td>{s.args.length ? <code>{s.args.join(' ')}</code> : '—'}</td>
                  <td>{s.default_timeout} s</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
