import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { AgentEvent, ScriptEvent } from '../api/events';
import { api, ApiError, errorText, ok } from '../api/http';
import type { AgentLive } from '../api/agent-live';
import { useScripts } from '../api/queries';
import type { RunScript } from '../api/schemas';
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
  /** Queued for an offline agent (runscript `queue: true`): waiting until it connects, unless cancelled or expired first. */
  queued?: boolean;
  /** A queued run that ended without being sent: cancelled or expired. */
  dropped?: 'cancelled' | 'expired';
}

/**
 * Run script: pick the script, its args and time-out, press Run. The run is started with output "forget" (the
 * answer is its id at once) and its output arrives as script.output events on the agent's WebSocket, shown as
 * they come; script.finished gives the return code and time. Events heard before the run's id is known are kept
 * and matched to it. Should the socket miss the end, the run is read from the REST API every few seconds.
 *
 * An agent that is not connected (`offline`, or a Run the server refused with 409 because the agent just went
 * away) is offered "Queue until the agent is back" instead: the same run with `queue: true`, which waits (a day)
 * for the agent and is then sent, and can be cancelled while it waits (docs/api.md, "Runs that wait for an
 * offline agent"). Once the agent connects, the queued run's output streams in as a run started at once.
 */
export function RunScriptPanel({ agentId, live, offline = false }: { agentId: string; live: AgentLive; offline?: boolean }) {
  const qc = useQueryClient();
  const scripts = useScripts();
  const [scriptId, setScriptId] = useState('');
  const [args, setArgs] = useState('');
  const [timeout, setTimeoutS] = useState('');
  const [run, setRun] = useState<RunView | null>(null);
  const [busy, setBusy] = useState(false);
  /** The last Run was refused because the agent is not connected (its status in the page may lag behind). */
  const [refusedOffline, setRefusedOffline] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);
  const queueMode = offline || refusedOffline;
  /** Every script event heard since Run was pressed, by run id (the answer with the id may come after them). */
  const heard = useRef(new Map<number, ScriptEvent[]>());
  const current = useRef<number | null>(null);
  const ids = useId();

  const selected = scripts.data?.find((s) => String(s.id) === scriptId);

  useEffect(
    () =>
      live.listen((e) => {
        if (!isScriptEvent(e)) return;
        const runId = e.data.run_id;
        // (script.queued only says what the answer said; any other event of the run means the agent has it.)
        if (current.current === runId) setRun((r) => (r && r.id === runId ? { ...applyEvent(r, e), queued: r.queued && e.event === 'script.queued' } : r));
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
      ok(api.GET('/api/v3/agents/{agentId}/runs/{runId}', { params: { path: { agentId: Number(agentId), runId: id } } }))
        .then((r) => {
          if (r.status === 'running' || r.status === 'queued') return;
          setRun((v) => {
            if (!v || v.id !== id || v.finished) return v;
            if (r.status === 'cancelled' || r.status === 'expired') return { ...v, queued: false, dropped: r.status };
            const text = `${r.stdout}${r.stderr}`;
            const streamed = v.chunks.map((c) => c.chunk).join('');
            const stored: Chunk[] = [
              { seq: 0, stream: 'stdout', chunk: r.stdout },
              { seq: 1, stream: 'stderr', chunk: r.stderr },
            ];
            return {
              ...v,
              chunks: streamed.length >= text.length ? v.chunks : stored.filter((c) => c.chunk),
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
    const queue = queueMode;
    setBusy(true);
    setCancelError(null);
    heard.current = new Map();
    current.current = null;
    setRun({ id: null, chunks: [], finished: null, error: null });
    const body: RunScript = { script: selected.id, output: 'forget', ...(queue ? { queue: true } : {}) };
    const argList = splitArgs(args);
    if (args.trim() !== '') body.args = argList;
    if (timeout.trim() !== '') body.timeout = Number(timeout);
    try {
      // With output "forget" the answer is 202 {id, status}: running, or queued.
      const res = await ok(api.POST('/api/v3/agents/{agentId}/runscript', { params: { path: { agentId: Number(agentId) } }, body }));
      current.current = res.id;
      setRefusedOffline(false);
      let view: RunView = { id: res.id, chunks: [], finished: null, error: null, queued: 'status' in res && res.status === 'queued' };
      for (const ev of heard.current.get(res.id) ?? []) view = applyEvent(view, ev);
      heard.current = new Map();
      setRun(view);
      void qc.invalidateQueries({ queryKey: ['agent-runs', agentId] });
    } catch (err) {
      if (!queue && err instanceof ApiError && err.status === 409) setRefusedOffline(true);
      setRun({ id: null, chunks: [], finished: null, error: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!run || run.id === null) return;
    const id = run.id;
    setCancelError(null);
    try {
      await ok(api.DELETE('/api/v3/agents/{agentId}/runs/{runId}', { params: { path: { agentId: Number(agentId), runId: id } } }));
      setRun((v) => (v && v.id === id ? { ...v, queued: false, dropped: 'cancelled' } : v));
      void qc.invalidateQueries({ queryKey: ['agent-runs', agentId] });
    } catch (err) {
      setCancelError(errorText(err));
    }
  };

  // stderr set apart from stdout: its chunks in the error colour, as the agent sent them, in order.
  const output = run
    ? run.chunks.map((c, i) =>
        c.stream === 'stderr' ? (
          <span key={i} className="stderr" data-stream="stderr">
            {c.chunk}
          </span>
        ) : (
          c.chunk
        ),
      )
    : null;
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
          {queueMode ? 'Queue until the agent is back' : 'Run'}
        </button>
      </form>
      {queueMode && (
        <p className="muted small">
          The agent is not connected: the run waits for it (a day at most) and runs when it is back. Its output is then shown here, and kept in the run
          history.
        </p>
      )}
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
          {run.queued && run.id !== null && (
            <div className="actions">
              <button type="button" className="small contrast outline" onClick={() => void cancel()}>
                Cancel<span className="visually-hidden"> queued run {run.id}</span>
              </button>
            </div>
          )}
          {cancelError && (
            <p role="alert" className="error">
              {cancelError}
            </p>
          )}
          <p className="run-result" role="status">
            {run.dropped === 'cancelled'
              ? 'Cancelled: it will not run'
              : run.dropped === 'expired'
                ? 'Expired: the agent did not come back in time'
                : run.queued
                  ? 'Queued: it runs when the agent is back'
                  : run.finished
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

const isScriptEvent = (e: AgentEvent): e is ScriptEvent => e.event.startsWith('script.');

function applyEvent(view: RunView, e: ScriptEvent): RunView {
  if (e.event === 'script.output') {
    const c: Chunk = { seq: e.data.seq, stream: e.data.stream, chunk: e.data.chunk };
    if (view.chunks.some((x) => x.seq === c.seq)) return view;
    const chunks = [...view.chunks, c].sort((a, b) => a.seq - b.seq);
    return { ...view, chunks };
  }
  if (e.event === 'script.finished') {
    return { ...view, finished: { retcode: e.data.retcode, executionTime: e.data.execution_time, timedOut: e.data.timed_out } };
  }
  return view;
}

/** One argument per line; blank lines are left out. */
function splitArgs(text: string): string[] {
  return text.split('\n').map((s) => s.replace(/\r$/, '')).filter((s) => s !== '');
}
