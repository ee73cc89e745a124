import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/http';
import { useCustomFields } from '../api/queries';
import type { CustomField, CustomFieldScope, CustomFieldType } from '../api/schemas';
import { ErrorNote, Loading, Section } from '../components/bits';

const SCOPES: CustomFieldScope[] = ['agent', 'site', 'client'];
const TYPES: CustomFieldType[] = ['text', 'number', 'boolean', 'date', 'select', 'multiselect', 'secret'];
const isChoice = (t: CustomFieldType) => t === 'select' || t === 'multiselect';

/** A default typed into the form as the field's type wants it (empty: none). */
function defaultOf(type: CustomFieldType, text: string): unknown {
  const t = text.trim();
  if (t === '' || type === 'secret') return undefined;
  if (type === 'number') return Number(t);
  if (type === 'boolean') return t === 'true';
  if (type === 'multiselect') return t.split(',').map((s) => s.trim()).filter(Boolean);
  return t;
}
const defaultText = (v: unknown): string => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : String(v));
const optionsOf = (text: string): string[] => text.split(',').map((s) => s.trim()).filter(Boolean);

/** Custom fields (admin): their definitions, created, changed and deleted here; values are set on the agent, client and site pages. */
export default function CustomFieldsPage() {
  const fields = useCustomFields();
  const qc = useQueryClient();
  const done = () => void qc.invalidateQueries({ queryKey: ['custom-fields'] });
  const [editing, setEditing] = useState<number | null>(null);
  const remove = useMutation({ mutationFn: (id: number) => ok(api.DELETE('/api/v3/custom-fields/{id}', { params: { path: { id } } })), onSuccess: done });
  return (
    <>
      <div className="page-head">
        <h1>Custom fields</h1>
      </div>
      <p className="muted">
        Scripts read them as <code>{'{{agent.name}}'}</code>, <code>{'{{site.name}}'}</code>, <code>{'{{client.name}}'}</code> in their arguments. A secret is never shown again once set.
      </p>
      <FieldForm key="new" done={done} />
      <Section id="fields" title="Fields">
        <ErrorNote error={remove.error} />
        {fields.isPending ? (
          <Loading what="custom fields" />
        ) : fields.isError ? (
          <ErrorNote error={fields.error} />
        ) : fields.data.length === 0 ? (
          <p className="muted">No custom fields yet.</p>
        ) : (
          <div className="table-scroll" tabIndex={0}>
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Label</th>
                  <th scope="col">Scope</th>
                  <th scope="col">Type</th>
                  <th scope="col">Options</th>
                  <th scope="col">Default</th>
                  <th scope="col">Required</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {fields.data.map((f) => (
                  <tr key={f.id}>
                    <td>
                      <code>{f.name}</code>
                    </td>
                    <td>{f.label}</td>
                    <td>{f.scope}</td>
                    <td>{f.type}</td>
                    <td>{f.options?.join(', ') ?? '—'}</td>
                    <td>{defaultText(f.default) || '—'}</td>
                    <td>{f.required ? 'yes' : 'no'}</td>
                    <td>
                      <button type="button" className="small secondary outline" onClick={() => setEditing(f.id)}>
                        Edit<span className="visually-hidden"> {f.name}</span>
                      </button>{' '}
                      <button
                        type="button"
                        className="small contrast outline"
                        onClick={() => {
                          if (window.confirm(`Delete the ${f.scope} field "${f.name}" and every value of it?`)) remove.mutate(f.id);
                        }}
                      >
                        Delete<span className="visually-hidden"> {f.name}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
      {editing !== null && fields.data?.find((f) => f.id === editing) && (
        <FieldForm key={editing} field={fields.data.find((f) => f.id === editing)} done={() => (setEditing(null), done())} cancel={() => setEditing(null)} />
      )}
    </>
  );
}

/** Creates a field, or (given `field`) changes one: name, scope and type only while no value of it exists (the server says so). */
function FieldForm({ field, done, cancel }: { field?: CustomField; done: () => void; cancel?: () => void }) {
  const [name, setName] = useState(field?.name ?? '');
  const [label, setLabel] = useState(field?.label ?? '');
  const [scope, setScope] = useState<CustomFieldScope>(field?.scope ?? 'agent');
  const [type, setType] = useState<CustomFieldType>(field?.type ?? 'text');
  const [options, setOptions] = useState(field?.options?.join(', ') ?? '');
  const [dflt, setDflt] = useState(defaultText(field?.default));
  const [required, setRequired] = useState(field?.required ?? false);
  const save = useMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        label: label.trim(),
        scope,
        type,
        ...(isChoice(type) ? { options: optionsOf(options) } : {}),
        required,
      };
      const d = defaultOf(type, dflt);
      if (field) return ok(api.PATCH('/api/v3/custom-fields/{id}', { params: { path: { id: field.id } }, body: { ...body, default: (d ?? null) as never } }));
      return ok(api.POST('/api/v3/custom-fields', { body: { ...body, ...(d === undefined ? {} : { default: d as never }) } }));
    },
    onSuccess: () => {
      if (!field) {
        setName('');
        setLabel('');
        setOptions('');
        setDflt('');
        setRequired(false);
      }
      done();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const id = field ? `edit-field-${field.id}` : 'new-field';
  return (
    <Section id={id} title={field ? `Edit ${field.name}` : 'New custom field'}>
      <form onSubmit={submit} className="form-grid">
        <label>
          Name
          <input required pattern="[a-z][a-z0-9_]{0,63}" title="a lowercase letter, then lowercase letters, digits or _" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Label
          <input required maxLength={200} value={label} onChange={(e) => setLabel(e.target.value)} />
        </label>
        <label>
          Scope
          <select value={scope} onChange={(e) => setScope(e.target.value as CustomFieldScope)}>
            {SCOPES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select value={type} onChange={(e) => setType(e.target.value as CustomFieldType)}>
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        {isChoice(type) && (
          <label>
            Options (comma-separated)
            <input required value={options} onChange={(e) => setOptions(e.target.value)} />
          </label>
        )}
        {type !== 'secret' && (
          <label>
            Default
            <input value={dflt} onChange={(e) => setDflt(e.target.value)} placeholder={type === 'date' ? 'YYYY-MM-DD' : type === 'boolean' ? 'true or false' : ''} />
          </label>
        )}
        <label>
          <input type="checkbox" checked={required} onChange={(e) => setRequired(e.target.checked)} /> Required
        </label>
        <div className="form-actions">
          <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
            {field ? 'Save field' : 'Create field'}
          </button>
          {cancel && (
            <button type="button" className="secondary outline" onClick={cancel}>
              Cancel
            </button>
          )}
        </div>
      </form>
      <ErrorNote error={save.error} />
    </Section>
  );
}
