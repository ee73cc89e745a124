import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { api, errorText, get } from '../api/http';
import type { AgentLive } from '../api/agent-live';
import { useScripts } from '../api/queries';
import type { LiveEvent, ScriptRun } from '../api/types';
import { Section } from '../components/bits';

interface Chunk {
  seq: number;
  stream: 'stdout' | 'stderr';
  chunk: string;
}

interface RunView {
  id: number | null;
  chunks: Chunk[];
  finished: { retcode: number | null; executionTime: number | null; timedOut: boolean } | null;
  error: string | null;
}

/**
 * Run script: pick the script, its args and time-out, press Run. The run is started with output "forget" (the
 * answer is its id at once) and its output arrives as script.output events on the agent's WebSocket, shown as
 * they come; script.finished gives the return code and time. Events heard before the run's id is known are kept
 * and matched to it. Should the socket miss the end, the run is read from the REST API every few seconds.
 */
export function RunScriptPanel({ agentId, live }: { agentId: string; live: AgentLive }) {
  const qc = useQueryClient();
  const scripts = useScripts();
  const [scriptId, setScriptId] = useState('');
  const [args, setArgs] = useState('');
  const [timeout, setTimeoutS] = useState('');
  const [run, setRun] = useState<RunView | null>(null);
  const [busy, setBusy] = useState(false);
  /** Every script event heard since Run was pressed, by run id (the answer with the id may come after them). */
  const heard = useRef(new Map<number, LiveEvent[]>());
  const current = useRef<number | null>(null);
  const ids = useId();

  const selected = scripts.data?.find((s) => String(s.id) === scriptId);

  useEffect(
    () =>
      live.listen((e) => {
        if (!e.event.startsWith('script.')) return;
        const runId = Number(e.data?.run_id);
        if (!Number.isInteger(runId)) return;
        if (current.current === runId) setRun((r) => (r && r.id === runId ? applyEvent(r, e) : r));
        else if (current.current === null) {
          const list = heard.current.get(runId) ?? [];
          list.push(e);
          heard.current.set(runId, list);
        }
      }),
    [live],
  );

  // The REST API as a fallback for the end of the run (a socket that dropped meanwhile).
  useEffect(() => {
    if (!run || run.id === null || run.finished || run.error) return;
    const id = run.id;
    const timer = setInterval(() => {
      get<ScriptRun>(`/agents/${encodeURIComponent(agentId)}/runs/${id}/`)
        .then((r) => {
          if (r.status === 'running' || r.status === 'pending') return;
          setRun((v) => {
            if (!v || v.id !== id || v.finished) return v;
            const text = `${r.stdout}${r.stderr}`;
            const streamed = v.chunks.map((c) => c.chunk).join('');
            return {
              ...v,
              chunks: streamed.length >= text.length ? v.chunks : [{ seq: 0, stream: 'stdout', chunk: text }],
              finished: { retcode: r.retcode, executionTime: r.execution_time === null ? null : Number(r.execution_time), timedOut: r.timed_out },
              error: r.error,
            };
          });
        })
        .catch(() => undefined);
    }, 5_000);
    return () => clearInterval(timer);
  }, [agentId, run]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!selected) return;
    setBusy(true);
    heard.current = new Map();
    current.current = null;
    setRun({ id: null, chunks: [], finished: null, error: null });
    const body: Record<string, unknown> = { script: selected.id, output: 'forget' };
    const argList = splitArgs(args);
    if (args.trim() !== '') body.args = argList;
    if (timeout.trim() !== '') body.timeout = Number(timeout);
    try {
      const res = await api<{ id: number }>('POST', `/agents/${encodeURIComponent(agentId)}/runscript/`, body);
      current.current = res.id;
      let view: RunView = { id: res.id, chunks: [], finished: null, error: null };
      for (const ev of heard.current.get(res.id) ?? []) view = applyEvent(view, ev);
      heard.current = new Map();
      setRun(view);
      void qc.invalidateQueries({ queryKey: ['agent-runs', agentId] });
    } catch (err) {
      setRun({ id: null, chunks: [], finished: null, error: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const output = run ? run.chunks.map((c) => c.chunk).join('') : '';
  return (
    <Section id="run-script" title="Run script">
      <form className="run-form" onSubmit={(e) => void submit(e)}>
        <div>
          <label htmlFor={`${ids}-script`}>Script</label>
          <select
            id={`${ids}-script`}
            required
            value={scriptId}
            onChange={(e) => {
              setScriptId(e.target.value);
              const s = scripts.data?.find((x) => String(x.id) === e.target.value);
              setArgs(s ? s.args.join('\n') : '');
              setTimeoutS(s ? String(s.default_timeout) : '');
            }}
          >
            <option value="">{scripts.isPending ? 'Loading scripts…' : 'Choose a script'}</option>
            {scripts.data?.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.shell})
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-args`}>Args (one per line)</label>
          <textarea id={`${ids}-args`} rows={2} value={args} onChange={(e) => setArgs(e.target.value)} />
        </div>
        <div>
          <label htmlFor={`${ids}-timeout`}>Timeout (seconds)</label>
          <input id={`${ids}-timeout`} type="number" min={1} max={300} value={timeout} onChange={(e) => setTimeoutS(e.target.value)} />
        </div>
        <button type="submit" disabled={!selected || busy} aria-busy={busy}>
          Run
        </button>
      </form>
      {run && (
        <div className="run-output">
          <h3>{run.id !== null ? `Run ${run.id}` : 'Starting…'}</h3>
          {run.error && (
            <p role="alert" className="error">
              {run.error}
            </p>
          )}
          <pre className="output" role="log" aria-label="Script output" data-run-id={run.id ?? undefined}>
            {output}
          </pre>
          <p className="run-result" role="status">
            {run.finished
              ? run.finished.timedOut
                ? `Timed out${run.finished.executionTime !== null ? ` after ${run.finished.executionTime.toFixed(3)} s` : ''}`
                : `Return code ${run.finished.retcode ?? '—'} · ${run.finished.executionTime !== null ? `${run.finished.executionTime.toFixed(3)} s` : 'no time'}`
              : run.id !== null && !run.error
                ? 'Running…'
                : ''}
          </p>
        </div>
      )}
    </Section>
  );
}

function applyEvent(view: RunView, e: LiveEvent): RunView {
  if (e.event === 'script.output') {
    const c: Chunk = { seq: Number(e.data.seq), stream: e.data.stream === 'stderr' ? 'stderr' : 'stdout', chunk: String(e.data.chunk ?? '') };
    if (view.chunks.some((x) => x.seq === c.seq)) return view;
    const chunks = [...view.chunks, c].sort((a, b) => a.seq - b.seq);
    return { ...view, chunks };
  }
  if (e.event === 'script.finished') {
    const t = e.data.execution_time;
    return {
      ...view,
      finished: { retcode: e.data.retcode ?? null, executionTime: typeof t === 'number' ? t : t == null ? null : Number(t), timedOut: e.data.timed_out === true },
    };
  }
  return view;
}

/** One argument per line; blank lines are left out. */
function splitArgs(text: string): string[] {
  return text.split('\n').map((s) => s.replace(/\r$/, '')).filter((s) => s !== '');
}
