import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { listPasskeys, registerPasskey, removePasskey, renamePasskey, type Passkey } from '../api/passkeys';
import { ErrorNote, Loading } from './bits';
import { when } from './format';

const PASSKEYS_KEY = ['auth', 'passkeys'] as const;

/**
 * The Account page's passkeys (docs/sso.md, "Passkeys"): the operator's own, with when each was made and last used;
 * add one (named), rename, remove. A passkey signs in alone, or as the second factor after the password.
 */
export function AccountPasskeys() {
  const qc = useQueryClient();
  const passkeys = useQuery({ queryKey: PASSKEYS_KEY, queryFn: listPasskeys });
  const refresh = () => void qc.invalidateQueries({ queryKey: PASSKEYS_KEY });
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: () => registerPasskey(name),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const remove = useMutation({ mutationFn: removePasskey, onSuccess: refresh });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };

  return (
    <div className="account-passkeys">
      {passkeys.isPending ? (
        <Loading what="passkeys" />
      ) : passkeys.isError ? (
        <ErrorNote error={passkeys.error} />
      ) : passkeys.data.length === 0 ? (
        <p>No passkey yet: add one to sign in without a password, or as the second factor after it.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="striped">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {passkeys.data.map((p) => (
                <PasskeyRow
                  key={p.id}
                  passkey={p}
                  onRenamed={refresh}
                  onRemove={() => {
                    if (window.confirm(`Remove the passkey "${p.name}"? It no longer signs in.`)) remove.mutate(p.id);
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ErrorNote error={remove.error} />
      <form onSubmit={submit} className="inline-form">
        <label>
          Passkey name
          <input name="passkey-name" placeholder="e.g. Work laptop" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" aria-busy={add.isPending} disabled={add.isPending}>
          Add a passkey
        </button>
      </form>
      {add.isSuccess && <p role="status">Passkey added</p>}
      <ErrorNote error={add.error} />
    </div>
  );
}

function PasskeyRow({ passkey, onRenamed, onRemove }: { passkey: Passkey; onRenamed: () => void; onRemove: () => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name);
  const rename = useMutation({
    mutationFn: () => renamePasskey(passkey.id, name.trim()),
    onSuccess: () => {
      setEditing(false);
      onRenamed();
    },
  });
  return (
    <tr>
      <td>
        {editing ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              rename.mutate();
            }}
          >
            <input aria-label={`New name for ${passkey.name}`} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
            <button type="submit" className="small" aria-busy={rename.isPending}>
              Save
            </button>
            <ErrorNote error={rename.error} />
          </form>
        ) : (
          passkey.name
        )}
      </td>
      <td>{when(passkey.created_at)}</td>
      <td>{passkey.last_used_at ? when(passkey.last_used_at) : 'never'}</td>
      <td>
        {!editing && (
          <button type="button" className="small outline" onClick={() => setEditing(true)}>
            Rename<span className="visually-hidden"> {passkey.name}</span>
          </button>
        )}{' '}
        <button type="button" className="small contrast outline" onClick={onRemove}>
          Remove<span className="visually-hidden"> {passkey.name}</span>
        </button>
      </td>
    </tr>
  );
}
