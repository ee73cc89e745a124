import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { api, errorText, ok } from '../api/http';
import { useSession } from '../api/session';
import { SHELLS, type Script, type Shell } from '../api/schemas';
import { ErrorNote, Loading } from '../components/bits';

// CodeMirror is a chunk of its own, loaded by this page only.
const CodeEditor = lazy(() => import('../components/code-editor'));

/** One script: create (`/scripts/new`) or edit, the body with syntax highlighting by shell. Read-only without scripts:write. */
export default function ScriptPage({ id }: { id: string }) {
  const isNew = id === 'new';
  const script = useQuery({ queryKey: ['script', id], queryFn: () => ok(api.GET('/api/v3/scripts/{id}', { params: { path: { id: Number(id) } } })), enabled: !isNew });
  if (!isNew && script.isPending) return <Loading what="the script" />;
  if (!isNew && script.isError) {
    return (
      <>
        <h1>Script</h1>
        <ErrorNote error={script.error} />
      </>
    );
  }
  return <ScriptForm key={id} script={isNew ? undefined : script.data} />;
}

function ScriptForm({ script }: { script?: Script }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const writable = can('scripts:write');
  const [name, setName] = useState(script?.name ?? '');
  const [shell, setShell] = useState<Shell>(script?.shell ?? 'bash');
  const [description, setDescription] = useState(script?.description ?? '');
  const [args, setArgs] = useState((script?.args ?? []).join('\n'));
  const [timeout, setTimeoutS] = useState(String(script?.default_timeout ?? 90));
  const [body, setBody] = useState(script?.body ?? '');
  const [saved, setSaved] = useState(false);
  useEffect(() => setSaved(false), [name, shell, description, args, timeout, body]);

  const save = useMutation({
    mutationFn: () => {
      const payload = {
        name: name.trim(),
        shell,
        description: description.trim() || null,
        args: args.split('\n').filter((a) => a !== ''),
        default_timeout: Number(timeout),
        body,
      };
      return ok(script ? api.PUT('/api/v3/scripts/{id}', { params: { path: { id: script.id } }, body: payload }) : api.POST('/api/v3/scripts', { body: payload }));
    },
    onSuccess: (s) => {
      void qc.invalidateQueries({ queryKey: ['scripts'] });
      qc.setQueryData(['script', String(s.id)], s);
      setSaved(true);
      if (!script) navigate(`/scripts/${s.id}`, { replace: true });
    },
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/api/v3/scripts/{id}', { params: { path: { id: script!.id } } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['scripts'] });
      navigate('/scripts');
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };

  return (
    <>
      <p>
        <Link href="/scripts">← Scripts</Link>
      </p>
      <h1>{script ? script.name : 'New script'}</h1>
      <form onSubmit={submit}>
        <fieldset disabled={!writable} className="form-grid">
          <label>
            Name
            <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Shell
            <select value={shell} onChange={(e) => setShell(e.target.value as Shell)}>
              {SHELLS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label>
            Description
            <input maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <label>
            Default timeout (seconds)
            <input type="number" min={1} max={300} required value={timeout} onChange={(e) => setTimeoutS(e.target.value)} />
          </label>
          <label className="wide">
            Default args (one per line)
            <textarea rows={2} value={args} onChange={(e) => setArgs(e.target.value)} />
          </label>
        </fieldset>
        <div className="editor-field">
          <span className="field-label" aria-hidden="true">
            Body
          </span>
          <Suspense fallback={<p aria-busy="true">Loading the editor…</p>}>
            <CodeEditor label="Body" value={body} onChange={setBody} shell={shell} readOnly={!writable} />
          </Suspense>
        </div>
        {save.isError && (
          <p role="alert" className="error">
            {errorText(save.error)}
          </p>
        )}
        {remove.isError && (
          <p role="alert" className="error">
            {errorText(remove.error)}
          </p>
        )}
        {saved && (
          <p role="status" className="ok">
            Saved.
          </p>
        )}
        {writable && (
          <div className="form-actions">
            <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
              {script ? 'Save' : 'Create script'}
            </button>
            {script && (
              <button
                type="button"
                className="contrast outline"
                onClick={() => {
                  if (window.confirm(`Delete the script "${script.name}"?`)) remove.mutate();
                }}
              >
                Delete
              </button>
            )}
          </div>
        )}
      </form>
    </>
  );
}
