import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/http';
import { useClients } from '../api/queries';
import { useSession } from '../api/session';
import { ROLES, type OperatorAccount, type OperatorChange, type Role } from '../api/schemas';
import { CopyButton, ErrorNote, Loading, Section } from '../components/bits';
import { ClientPicker, clientNames } from '../components/client-picker';
import { when } from '../components/format';

/** Operator accounts (admin only): create, change role, disable or enable, set a password. */
export default function OperatorsPage() {
  const operators = useQuery({ queryKey: ['operators'], queryFn: () => ok(api.GET('/api/v3/operators')) });
  const clients = useClients();
  return (
    <>
      <div className="page-head">
        <h1>Operators</h1>
      </div>
      <CreateOperator />
      <Section id="operators" title="Accounts">
        {operators.isPending ? (
          <Loading what="operators" />
        ) : operators.isError ? (
          <ErrorNote error={operators.error} />
        ) : (
          <div className="table-scroll" tabIndex={0}>
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Clients</th>
                  <th scope="col">Two-factor</th>
                  <th scope="col">Created</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {operators.data.map((o) => (
                  <OperatorRow key={o.id} op={o} clientsText={clientNames(o.clients, clients.data)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  );
}

function OperatorRow({ op: o, clientsText }: { op: OperatorAccount; clientsText: string }) {
  const { operator: me } = useSession();
  const qc = useQueryClient();
  const [role, setRole] = useState<Role>(o.role);
  const [settingPassword, setSettingPassword] = useState(false);
  const [password, setPassword] = useState('');
  const done = () => void qc.invalidateQueries({ queryKey: ['operators'] });
  const patch = useMutation({
    mutationFn: (body: OperatorChange) => ok(api.PATCH('/api/v3/operators/{id}', { params: { path: { id: o.id } }, body })),
    onSuccess: () => {
      setSettingPassword(false);
      setPassword('');
      done();
    },
  });
  const totp = useMutation({
    mutationFn: (on: boolean) => {
      const params = { path: { id: o.id } };
      return on ? ok(api.POST('/api/v3/operators/{id}/totp', { params })) : ok(api.DELETE('/api/v3/operators/{id}/totp', { params }));
    },
    onSuccess: done,
  });
  const endSessions = useMutation({ mutationFn: () => ok(api.DELETE('/api/v3/operators/{id}/sessions', { params: { path: { id: o.id } } })) });
  const self = o.id === me.id;
  return (
    <tr>
      <td>
        {o.email}
        {o.disabled && <small className="muted"> (disabled)</small>}
        {self && <small className="muted"> (you)</small>}
        <ErrorNote error={patch.error ?? totp.error ?? endSessions.error} />
        {endSessions.isSuccess && <p role="status">Every session of {o.email} ended: they sign in again.</p>}
        {settingPassword && (
          <form
            className="inline"
            onSubmit={(e) => {
              e.preventDefault();
              patch.mutate({ password });
            }}
          >
            <label>
              <span className="visually-hidden">New password for {o.email}</span>
              <input type="password" required minLength={8} autoComplete="new-password" placeholder="New password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </label>
            <button type="submit" className="small">
              Save password
            </button>
            <button type="button" className="small secondary outline" onClick={() => setSettingPassword(false)}>
              Cancel
            </button>
          </form>
        )}
        {totp.data && (
          <div className="created" role="status">
            <p>Two-factor sign-in set up. Scan this URI into an authenticator app; it and the recovery codes are shown only this once.</p>
            <div className="command">
              <span className="command-label">URI</span>
              <code>{totp.data.otpauth_uri}</code>
              <CopyButton text={totp.data.otpauth_uri} label="the otpauth URI" />
            </div>
            <div className="command">
              <span className="command-label">Recovery codes</span>
              <code>{totp.data.recovery_codes.join(' ')}</code>
              <CopyButton text={totp.data.recovery_codes.join('\n')} label="the recovery codes" />
            </div>
          </div>
        )}
      </td>
      <td>
        <label className="inline-select">
          <span className="visually-hidden">Role of {o.email}</span>
          <select value={role} disabled={self} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        {role !== o.role && (
          <button type="button" className="small" onClick={() => patch.mutate({ role })}>
            Save role
          </button>
        )}
      </td>
      <td>{clientsText}</td>
      <td>{o.totp ? 'on' : 'off'}</td>
      <td>{when(o.created_at)}</td>
      <td className="actions">
        {!self && (
          <button type="button" className="small secondary outline" onClick={() => patch.mutate({ disabled: !o.disabled })}>
            {o.disabled ? 'Enable' : 'Disable'}
            <span className="visually-hidden"> {o.email}</span>
          </button>
        )}
        {!self && (
          <button type="button" className="small secondary outline" disabled={endSessions.isPending} onClick={() => endSessions.mutate()}>
            End sessions<span className="visually-hidden"> of {o.email}</span>
          </button>
        )}
        <button type="button" className="small secondary outline" onClick={() => setSettingPassword(!settingPassword)}>
          Set password<span className="visually-hidden"> of {o.email}</span>
        </button>
        <button
          type="button"
          className="small secondary outline"
          onClick={() => {
            if (!o.totp || window.confirm(`Remove two-factor sign-in of ${o.email}? Their password alone will sign in.`)) totp.mutate(!o.totp);
          }}
        >
          {o.totp ? 'Remove two-factor' : 'Set up two-factor'}
          <span className="visually-hidden"> of {o.email}</span>
        </button>
      </td>
    </tr>
  );
}

function CreateOperator() {
  const qc = useQueryClient();
  const clients = useClients();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('technician');
  const [limitTo, setLimitTo] = useState<number[]>([]);
  const create = useMutation({
    mutationFn: () => ok(api.POST('/api/v3/operators', { body: { email: email.trim(), password, role, ...(limitTo.length ? { clients: limitTo } : {}) } })),
    onSuccess: () => {
      setEmail('');
      setPassword('');
      setLimitTo([]);
      void qc.invalidateQueries({ queryKey: ['operators'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Section id="new-operator" title="New operator">
      <form onSubmit={submit}>
        <div className="form-grid">
          <label>
            Operator email
            <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
          </label>
          <label>
            Initial password
            <input type="password" required minLength={8} value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
        </div>
        {clients.data && <ClientPicker clients={clients.data} value={limitTo} onChange={setLimitTo} legend="Clients they may see" />}
        <button type="submit" aria-busy={create.isPending} disabled={create.isPending}>
          Create operator
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.isSuccess && (
        <p role="status" className="ok">
          Operator created.
        </p>
      )}
    </Section>
  );
}
