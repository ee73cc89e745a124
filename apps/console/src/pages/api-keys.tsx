import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/http';
import { useClients } from '../api/queries';
import { SCOPES, type Scope } from '../api/schemas';
import { CopyButton, ErrorNote, Loading, Section } from '../components/bits';
import { ClientPicker, clientNames } from '../components/client-picker';
import { when } from '../components/format';

/** Management API keys (admin only): create (the secret is shown once), revoke. */
export default function ApiKeysPage() {
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => ok(api.GET('/api/v3/keys')) });
  const clients = useClients();
  const qc = useQueryClient();
  const revoke = useMutation({
    mutationFn: (id: number) => ok(api.DELETE('/api/v3/keys/{id}', { params: { path: { id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['keys'] }),
  });
  return (
    <>
      <div className="page-head">
        <h1>API keys</h1>
      </div>
      <CreateKey />
      <Section id="keys" title="Keys">
        <ErrorNote error={revoke.error} />
        {keys.isPending ? (
          <Loading what="keys" />
        ) : keys.isError ? (
          <ErrorNote error={keys.error} />
        ) : (
          <div className="table-scroll" tabIndex={0}>
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Clients</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {keys.data.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td>
                      <code>{k.prefix}</code>
                    </td>
                    <td>{k.scopes.join(', ')}</td>
                    <td>{clientNames(k.clients, clients.data)}</td>
                    <td>{k.expires_at ? when(k.expires_at) : 'never'}</td>
                    <td>{when(k.last_used_at)}</td>
                    <td>
                      {k.revoked_at ? (
                        `Revoked ${when(k.revoked_at)}`
                      ) : (
                        <button
                          type="button"
                          className="small contrast outline"
                          onClick={() => {
                            if (window.confirm(`Revoke the key "${k.name}"? Whatever uses it stops working at once.`)) revoke.mutate(k.id);
                          }}
                        >
                          Revoke<span className="visually-hidden"> {k.name}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  );
}

function CreateKey() {
  const qc = useQueryClient();
  const clients = useClients();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expiresIn, setExpiresIn] = useState('');
  const [limitTo, setLimitTo] = useState<number[]>([]);
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v3/keys', {
          body: {
            name: name.trim(),
            scopes,
            ...(expiresIn.trim() ? { expires_in: expiresIn.trim() } : {}),
            ...(limitTo.length ? { clients: limitTo } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      setScopes([]);
      setExpiresIn('');
      setLimitTo([]);
      void qc.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Section id="new-key" title="New key">
      <form onSubmit={submit}>
        <div className="form-grid">
          <label>
            Key name
            <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Expires in (e.g. 30d, 12h; empty: never)
            <input value={expiresIn} onChange={(e) => setExpiresIn(e.target.value)} />
          </label>
        </div>
        <fieldset className="checks">
          <legend>Scopes</legend>
          {SCOPES.map((s) => (
            <label key={s}>
              <input type="checkbox" checked={scopes.includes(s)} onChange={(e) => setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))} />
              {s}
            </label>
          ))}
        </fieldset>
        {clients.data && <ClientPicker clients={clients.data} value={limitTo} onChange={setLimitTo} legend="Clients it may see" />}
        <button type="submit" aria-busy={create.isPending} disabled={create.isPending || scopes.length === 0}>
          Create key
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.data && (
        <div className="created" role="status">
          <p>
            The key <strong>{create.data.name}</strong>, shown this once:
          </p>
          <div className="command">
            <code>{create.data.key}</code>
            <CopyButton text={create.data.key} label="the new key" />
          </div>
        </div>
      )}
    </Section>
  );
}
