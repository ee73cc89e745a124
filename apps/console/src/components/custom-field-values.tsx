import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { errorText } from '../api/http';
import { useCustomFields } from '../api/queries';
import type { CustomField, CustomFieldScope, CustomFieldValues } from '../api/schemas';

const MASK = '********';

/** A value as the table shows it: a list joined, a boolean as yes/no, unset as a dash. */
function shown(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return String(v);
}

/**
 * The custom fields of one agent, site or client (docs/custom-fields.md): read-only, or a form when `save` is given.
 * A secret is never shown: its field stays empty ("set" says it has one); typing replaces it, Clear removes it.
 * Only the fields changed are sent (the PUT is a partial merge).
 */
export function CustomFieldValuesPanel({
  scope,
  values,
  save,
  idPrefix,
}: {
  scope: CustomFieldScope;
  values: CustomFieldValues;
  save?: (changes: CustomFieldValues) => Promise<unknown>;
  idPrefix: string;
}) {
  const fields = useCustomFields(scope);
  const [editing, setEditing] = useState(false);
  if (fields.isPending) return <p aria-busy="true">Loading fields…</p>;
  if (fields.isError) return <p className="error">{errorText(fields.error)}</p>;
  const defs = fields.data.filter((f) => f.scope === scope);
  if (defs.length === 0) return <p className="muted">No {scope} custom fields are defined.</p>;
  if (editing && save) return <ValuesForm defs={defs} values={values} save={save} done={() => setEditing(false)} idPrefix={idPrefix} />;
  return (
    <>
      <dl className="custom-fields">
        {defs.map((f) => (
          <div key={f.id}>
            <dt>{f.label}</dt>
            <dd>{f.type === 'secret' ? (values[f.name] === MASK ? 'set (hidden)' : '—') : shown(values[f.name])}</dd>
          </div>
        ))}
      </dl>
      {save && (
        <button type="button" className="small secondary outline" onClick={() => setEditing(true)}>
          Edit fields
        </button>
      )}
    </>
  );
}

type Draft = Record<string, string | boolean | string[]>;

function draftOf(f: CustomField, v: unknown): string | boolean | string[] {
  switch (f.type) {
    case 'boolean':
      return v === true;
    case 'multiselect':
      return Array.isArray(v) ? (v as string[]) : [];
    case 'secret':
      return '';
    default:
      return v === null || v === undefined ? '' : String(v);
  }
}

function ValuesForm({ defs, values, save, done, idPrefix }: { defs: CustomField[]; values: CustomFieldValues; save: (c: CustomFieldValues) => Promise<unknown>; done: () => void; idPrefix: string }) {
  const [draft, setDraft] = useState<Draft>(() => Object.fromEntries(defs.map((f) => [f.name, draftOf(f, values[f.name])])));
  const [cleared, setCleared] = useState<Set<string>>(new Set());
  const put = useMutation({ mutationFn: save, onSuccess: done });
  const set = (name: string, v: string | boolean | string[]) => setDraft((d) => ({ ...d, [name]: v }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const changes: CustomFieldValues = {};
    for (const f of defs) {
      const v = draft[f.name];
      if (f.type === 'secret') {
        if (cleared.has(f.name)) changes[f.name] = null;
        else if (v !== '') changes[f.name] = v;
        continue;
      }
      const before = draftOf(f, values[f.name]);
      if (JSON.stringify(before) === JSON.stringify(v)) continue;
      if (f.type === 'number') changes[f.name] = v === '' ? null : Number(v);
      else if (f.type === 'multiselect') changes[f.name] = (v as string[]).length === 0 ? null : v;
      else if (f.type === 'boolean') changes[f.name] = v;
      else changes[f.name] = v === '' ? null : v;
    }
    put.mutate(changes);
  };

  return (
    <form onSubmit={submit} className="form-grid">
      {defs.map((f) => {
        const id = `${idPrefix}-cf-${f.name}`;
        const v = draft[f.name];
        switch (f.type) {
          case 'boolean':
            return (
              <label key={f.id} htmlFor={id}>
                <input id={id} type="checkbox" checked={v === true} onChange={(e) => set(f.name, e.target.checked)} /> {f.label}
              </label>
            );
          case 'select':
            return (
              <label key={f.id} htmlFor={id}>
                {f.label}
                <select id={id} value={v as string} required={f.required} onChange={(e) => set(f.name, e.target.value)}>
                  <option value="">—</option>
                  {(f.options ?? []).map((o) => (
                    <option key={o}>{o}</option>
                  ))}
                </select>
              </label>
            );
          case 'multiselect':
            return (
              <fieldset key={f.id}>
                <legend>{f.label}</legend>
                {(f.options ?? []).map((o) => (
                  <label key={o} htmlFor={`${id}-${o}`}>
                    <input
                      id={`${id}-${o}`}
                      type="checkbox"
                      checked={(v as string[]).includes(o)}
                      onChange={(e) => set(f.name, e.target.checked ? [...(v as string[]), o] : (v as string[]).filter((x) => x !== o))}
                    />{' '}
                    {o}
                  </label>
                ))}
              </fieldset>
            );
          case 'secret':
            return (
              <div key={f.id}>
                <label htmlFor={id}>
                  {f.label}
                  <input
                    id={id}
                    type="password"
                    autoComplete="new-password"
                    placeholder={values[f.name] === MASK ? 'set (type to replace)' : 'not set'}
                    value={v as string}
                    disabled={cleared.has(f.name)}
                    onChange={(e) => set(f.name, e.target.value)}
                  />
                </label>
                {values[f.name] === MASK && (
                  <label htmlFor={`${id}-clear`}>
                    <input
                      id={`${id}-clear`}
                      type="checkbox"
                      checked={cleared.has(f.name)}
                      onChange={(e) => setCleared((c) => (e.target.checked ? new Set([...c, f.name]) : new Set([...c].filter((x) => x !== f.name))))}
                    />{' '}
                    Clear {f.label}
                  </label>
                )}
              </div>
            );
          default:
            return (
              <label key={f.id} htmlFor={id}>
                {f.label}
                <input
                  id={id}
                  type={f.type === 'number' ? 'number' : f.type === 'date' ? 'date' : 'text'}
                  step={f.type === 'number' ? 'any' : undefined}
                  maxLength={f.type === 'text' ? 4096 : undefined}
                  required={f.required}
                  value={v as string}
                  onChange={(e) => set(f.name, e.target.value)}
                />
              </label>
            );
        }
      })}
      <div className="form-actions">
        <button type="submit" aria-busy={put.isPending} disabled={put.isPending}>
          Save fields
        </button>
        <button type="button" className="secondary outline" onClick={done}>
          Cancel
        </button>
      </div>
      {put.isError && (
        <p role="alert" className="error">
          {errorText(put.error)}
        </p>
      )}
    </form>
  );
}
