import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorText, ok } from '../api/http';
import { useClients } from '../api/queries';
import { useSession } from '../api/session';
import { type Arch, ARCHES, type Client, type Deployment } from '../api/schemas';
import { CopyButton, ErrorNote, Loading, Section } from '../components/bits';
import { localInput, when } from '../components/format';
import { INSTALLER_REQUIREMENTS } from '../facts/installer-facts';
import { installCommands } from './install-commands';

export function DeploymentsPage() {
  const { can } = useSession();
  const deployments = useQuery({ queryKey: ['deployments'], queryFn: () => ok(api.GET('/api/v3/agents/deployments')) });
  const clients = useClients();
  const [created, setCreated] = useState<Deployment | null>(null);
  return (
    <>
      <div className="page-head">
        <h1>Deployments</h1>
      </div>
      <p className="muted">A deployment is a download link that enrolls devices into a client's site until it expires or is revoked. The link is the credential: share it like a password.</p>
      {can('deployments:write') && <CreateDeployment clients={clients.data ?? []} onCreated={setCreated} />}
      {created && (
        <Section id="created" title="New deployment">
          <InstallInstructions deployment={created} />
        </Section>
      )}
      <Section id="list" title="Active deployments">
        {deployments.isPending ? (
          <Loading what="deployments" />
        ) : deployments.isError ? (
          <ErrorNote error={deployments.error} />
        ) : deployments.data.length === 0 ? (
          <p className="muted">No active deployment.</p>
        ) : (
          <DeploymentList deployments={[...deployments.data].reverse()} clients={clients.data ?? []} />
        )}
      </Section>
    </>
  );
}

function CreateDeployment({ clients, onCreated }: { clients: Client[]; onCreated: (d: Deployment) => void }) {
  const qc = useQueryClient();
  const [client, setClient] = useState('');
  const [site, setSite] = useState('');
  const [expires, setExpires] = useState(() => localInput(new Date(Date.now() + 24 * 3600_000)));
  const [arch, setArch] = useState<Arch>('amd64');
  const [max, setMax] = useState('');
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v3/agents/deployments', {
          body: {
            client: Number(client),
            site: Number(site),
            expires: new Date(expires).toISOString(),
            arch,
            ...(max.trim() ? { max_registrations: Number(max) } : {}),
          },
        }),
      ),
    onSuccess: (d) => {
      onCreated(d);
      void qc.invalidateQueries({ queryKey: ['deployments'] });
    },
  });
  const sites = clients.find((c) => String(c.id) === client)?.sites ?? [];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Section id="create" title="Create a deployment">
      <form onSubmit={submit} className="form-grid">
        <label>
          Client
          <select
            required
            value={client}
            onChange={(e) => {
              setClient(e.target.value);
              const c = clients.find((x) => String(x.id) === e.target.value);
              setSite(c?.sites.length === 1 ? String(c.sites[0].id) : '');
            }}
          >
            <option value="">Choose a client</option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Site
          <select required value={site} onChange={(e) => setSite(e.target.value)} disabled={!client}>
            <option value="">Choose a site</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires
          <input type="datetime-local" required value={expires} onChange={(e) => setExpires(e.target.value)} />
        </label>
        <label>
          Architecture
          <select value={arch} onChange={(e) => setArch(e.target.value as Arch)}>
            {ARCHES.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Max registrations (empty: any number)
          <input type="number" min={1} value={max} onChange={(e) => setMax(e.target.value)} />
        </label>
        <div className="form-actions">
          <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
            Create deployment
          </button>
        </div>
      </form>
      {create.isError && (
        <p role="alert" className="error">
          {errorText(create.error)}
        </p>
      )}
    </Section>
  );
}

/** The download URL and the three install commands, each with its Copy button. */
export function InstallInstructions({ deployment: d }: { deployment: Deployment }) {
  return (
    <div className="install">
      <p>
        Valid until {when(d.expiry)}
        {d.max_registrations !== null ? `, for ${d.max_registrations} device(s)` : ''}.
      </p>
      <div className="command">
        <span className="command-label" id={`url-${d.id}`}>
          Download URL
        </span>
        <code aria-labelledby={`url-${d.id}`}>{d.download_url}</code>
        <CopyButton text={d.download_url} label="download URL" />
      </div>
      {installCommands(d.download_url).map((c) => (
        <div className="command" key={c.platform} data-platform={c.platform}>
          <span className="command-label" id={`cmd-${d.id}-${c.platform}`}>
            {c.label}
          </span>
          <code aria-labelledby={`cmd-${d.id}-${c.platform}`}>{c.command}</code>
          <CopyButton text={c.command} label={`${c.label} command`} />
        </div>
      ))}
      <p className="muted small">
        {INSTALLER_REQUIREMENTS} Run the Linux and macOS commands in a terminal (as root: they install a service), the Windows one in PowerShell as
        Administrator.
      </p>
    </div>
  );
}

function DeploymentList({ deployments, clients }: { deployments: Deployment[]; clients: Client[] }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const [open, setOpen] = useState<number | null>(null);
  const revoke = useMutation({
    mutationFn: (id: number) => ok(api.DELETE('/api/v3/agents/deployments/{id}', { params: { path: { id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['deployments'] }),
  });
  const clientName = (id: number) => clients.find((c) => c.id === id)?.name ?? `client ${id}`;
  const siteName = (cid: number, sid: number) => clients.find((c) => c.id === cid)?.sites.find((s) => s.id === sid)?.name ?? `site ${sid}`;
  return (
    <>
      {revoke.isError && (
        <p role="alert" className="error">
          {errorText(revoke.error)}
        </p>
      )}
      <div className="table-scroll" tabIndex={0}>
        <table className="striped">
          <thead>
            <tr>
              <th scope="col">Client / site</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Registrations</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {deployments.map((d) => (
              <DeploymentRow
                key={d.id}
                d={d}
                where={`${clientName(d.client)} / ${siteName(d.client, d.site)}`}
                open={open === d.id}
                toggle={() => setOpen(open === d.id ? null : d.id)}
                onRevoke={
                  can('deployments:write')
                    ? () => {
                        if (window.confirm('Revoke this deployment? Its download link stops working at once.')) revoke.mutate(d.id);
                      }
                    : undefined
                }
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function DeploymentRow({ d, where, open, toggle, onRevoke }: { d: Deployment; where: string; open: boolean; toggle: () => void; onRevoke?: () => void }) {
  return (
    <>
      <tr data-deployment-id={d.id}>
        <td>
          {where}
          <br />
          <small className="muted">
            {d.arch} · {d.uuid.slice(0, 8)}…
          </small>
        </td>
        <td>{when(d.created_at)}</td>
        <td>{when(d.expiry)}</td>
        <td>
          {d.registrations}
          {d.max_registrations !== null ? ` of ${d.max_registrations}` : ''}
        </td>
        <td className="actions">
          <button type="button" className="small secondary outline" aria-expanded={open} onClick={toggle}>
            {open ? 'Hide commands' : 'Install commands'}
          </button>
          {onRevoke && (
            <button type="button" className="small contrast outline" onClick={onRevoke}>
              Revoke
            </button>
          )}
        </td>
      </tr>
      {open && (
        <tr className="detail">
          <td colSpan={5}>
            <InstallInstructions deployment={d} />
          </td>
        </tr>
      )}
    </>
  );
}
