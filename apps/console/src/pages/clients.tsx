import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorText, ok } from '../api/http';
import { useClients } from '../api/queries';
import { useSession } from '../api/session';
import type { Client, Site } from '../api/schemas';
import { ErrorNote, Loading, Section } from '../components/bits';
import { CustomFieldValuesPanel } from '../components/custom-field-values';

/** Clients and their sites. Creating and deleting a client is an admin's; renaming and sites need clients:write. */
export function ClientsPage() {
  const { can, isAdmin } = useSession();
  const clients = useClients();
  return (
    <>
      <div className="page-head">
        <h1>Clients and sites</h1>
      </div>
      {isAdmin && <CreateClient />}
      {clients.isPending ? (
        <Loading what="clients" />
      ) : clients.isError ? (
        <ErrorNote error={clients.error} />
      ) : clients.data.length === 0 ? (
        <p className="muted">No clients.</p>
      ) : (
        clients.data.map((c) => <ClientCard key={c.id} client={c} writable={can('clients:write')} deletable={isAdmin} />)
      )}
    </>
  );
}

function useInvalidateClients() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: ['clients'] });
}

function CreateClient() {
  const done = useInvalidateClients();
  const [name, setName] = useState('');
  const [site, setSite] = useState('');
  const create = useMutation({
    mutationFn: () => ok(api.POST('/api/v3/clients', { body: { name: name.trim(), ...(site.trim() ? { site_name: site.trim() } : {}) } })),
    onSuccess: () => {
      setName('');
      setSite('');
      done();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Section id="new-client" title="New client">
      <form onSubmit={submit} className="form-grid">
        <label>
          Client name
          <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          First site
          <input maxLength={200} value={site} onChange={(e) => setSite(e.target.value)} />
        </label>
        <div className="form-actions">
          <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
            Create client
          </button>
        </div>
      </form>
      <ErrorNote error={create.error} />
    </Section>
  );
}

function ClientCard({ client: c, writable, deletable }: { client: Client; writable: boolean; deletable: boolean }) {
  const done = useInvalidateClients();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(c.name);
  const [newSite, setNewSite] = useState('');
  const id = { path: { id: c.id } };
  const rename = useMutation({
    mutationFn: () => ok(api.PATCH('/api/v3/clients/{id}', { params: id, body: { name: name.trim() } })),
    onSuccess: () => (setRenaming(false), done()),
  });
  const remove = useMutation({ mutationFn: () => ok(api.DELETE('/api/v3/clients/{id}', { params: id })), onSuccess: done });
  const addSite = useMutation({
    mutationFn: () => ok(api.POST('/api/v3/clients/{id}/sites', { params: id, body: { name: newSite.trim() } })),
    onSuccess: () => (setNewSite(''), done()),
  });
  const error = rename.error ?? remove.error ?? addSite.error;
  return (
    <section className="panel" aria-labelledby={`client-${c.id}`}>
      <div className="section-head">
        {renaming ? (
          <RenameForm label={`New name of ${c.name}`} name={name} setName={setName} save={() => rename.mutate()} cancel={() => setRenaming(false)} />
        ) : (
          <h2 id={`client-${c.id}`}>{c.name}</h2>
        )}
        <div className="actions">
          {writable && !renaming && (
            <button type="button" className="small secondary outline" onClick={() => setRenaming(true)}>
              Rename<span className="visually-hidden"> {c.name}</span>
            </button>
          )}
          {deletable && (
            <button
              type="button"
              className="small contrast outline"
              onClick={() => {
                if (window.confirm(`Delete the client "${c.name}" and its sites?`)) remove.mutate();
              }}
            >
              Delete<span className="visually-hidden"> {c.name}</span>
            </button>
          )}
        </div>
      </div>
      {error && <p role="alert" className="error">{errorText(error)}</p>}
      <details>
        <summary>Custom fields of {c.name}</summary>
        <CustomFieldValuesPanel
          scope="client"
          idPrefix={`client-${c.id}`}
          values={c.custom_fields}
          save={writable ? async (changes) => (await ok(api.PUT('/api/v3/clients/{id}/custom-fields', { params: id, body: changes })), done()) : undefined}
        />
      </details>
      <ul className="sites">
        {c.sites.map((s) => (
          <SiteItem key={s.id} clientId={c.id} site={s} writable={writable} />
        ))}
        {c.sites.length === 0 && <li className="muted">No sites.</li>}
      </ul>
      {writable && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            addSite.mutate();
          }}
        >
          <label>
            <span className="visually-hidden">New site of {c.name}</span>
            <input required maxLength={200} placeholder="New site" value={newSite} onChange={(e) => setNewSite(e.target.value)} />
          </label>
          <button type="submit" className="small">
            Add site
          </button>
        </form>
      )}
    </section>
  );
}

function SiteItem({ clientId, site: s, writable }: { clientId: number; site: Site; writable: boolean }) {
  const done = useInvalidateClients();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(s.name);
  const ids = { path: { id: clientId, siteId: s.id } };
  const rename = useMutation({
    mutationFn: () => ok(api.PUT('/api/v3/clients/{id}/sites/{siteId}', { params: ids, body: { name: name.trim() } })),
    onSuccess: () => (setRenaming(false), done()),
  });
  const remove = useMutation({ mutationFn: () => ok(api.DELETE('/api/v3/clients/{id}/sites/{siteId}', { params: ids })), onSuccess: done });
  const error = rename.error ?? remove.error;
  return (
    <li>
      {renaming ? (
        <RenameForm label={`New name of site ${s.name}`} name={name} setName={setName} save={() => rename.mutate()} cancel={() => setRenaming(false)} />
      ) : (
        <>
          <span>{s.name}</span>
          {writable && (
            <span className="actions">
              <button type="button" className="small secondary outline" onClick={() => setRenaming(true)}>
                Rename<span className="visually-hidden"> site {s.name}</span>
              </button>
              <button
                type="button"
                className="small contrast outline"
                onClick={() => {
                  if (window.confirm(`Delete the site "${s.name}"?`)) remove.mutate();
                }}
              >
                Delete<span className="visually-hidden"> site {s.name}</span>
              </button>
            </span>
          )}
        </>
      )}
      {error && <span role="alert" className="error"> {errorText(error)}</span>}
      <details>
        <summary>Custom fields of site {s.name}</summary>
        <SiteFields clientId={clientId} site={s} writable={writable} />
      </details>
    </li>
  );
}

/** The inline form that renames a client or a site: its field (labelled for screen readers), Save and Cancel. */
function RenameForm({ label, name, setName, save, cancel }: { label: string; name: string; setName: (v: string) => void; save: () => void; cancel: () => void }) {
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label>
        <span className="visually-hidden">{label}</span>
        <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <button type="submit" className="small">
        Save
      </button>
      <button type="button" className="small secondary outline" onClick={cancel}>
        Cancel
      </button>
    </form>
  );
}

/** A site's custom fields, from the client's sites list (its reads carry them). */
function SiteFields({ clientId, site: s, writable }: { clientId: number; site: Site; writable: boolean }) {
  const qc = useQueryClient();
  const sites = useQuery({ queryKey: ['client-sites', clientId], queryFn: () => ok(api.GET('/api/v3/clients/{id}/sites', { params: { path: { id: clientId } } })) });
  if (sites.isPending) return <Loading what="the site's fields" />;
  if (sites.isError) return <ErrorNote error={sites.error} />;
  const site = sites.data.find((x) => x.id === s.id);
  return (
    <CustomFieldValuesPanel
      scope="site"
      idPrefix={`site-${s.id}`}
      values={site?.custom_fields ?? {}}
      save={
        writable
          ? async (changes) => {
              await ok(api.PUT('/api/v3/clients/{id}/sites/{siteId}/custom-fields', { params: { path: { id: clientId, siteId: s.id } }, body: changes }));
              await qc.invalidateQueries({ queryKey: ['client-sites', clientId] });
            }
          : undefined
      }
    />
  );
}
