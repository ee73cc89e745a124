import { type ReactNode, useState } from 'react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { api, ok } from '../api/http';
import { useAgentLive } from '../api/agent-live';
import { useSession } from '../api/session';
import type { Check, ScriptRun, Task } from '../api/schemas';
import { ErrorNote, Loading, NEVER_CONNECTED, Section, StatusBadge } from '../components/bits';
import { ago, osOf, useNow, when } from '../components/format';
import { liveNote } from '../components/live-note';
import { AlertsTable } from './alerts';
import { RunScriptPanel } from './run-script';

/** One agent: its facts and disks, checks, tasks, alerts and script runs, live from /rmm/{agent_id}/. */
export function AgentPage({ id }: { id: string }) {
  const { can } = useSession();
  const live = useAgentLive(id);
  const agent = useQuery({ queryKey: ['agent', id], queryFn: () => ok(api.GET('/api/v3/agents/{agentId}', { params: { path: { agentId: Number(id) } } })) });
  const [running, setRunning] = useState(false);
  const now = useNow();

  if (agent.isPending) return <Loading what="the agent" />;
  if (agent.isError) {
    return (
      <>
        <h1>Agent {id}</h1>
        <ErrorNote error={agent.error} />
      </>
    );
  }
  const a = agent.data;
  return (
    <>
      <div className="page-head">
        <h1>
          {a.hostname} <StatusBadge status={a.status} />
        </h1>
        {can('scripts:run') && (
          <button type="button" aria-expanded={running} aria-controls="run-script" onClick={() => setRunning(!running)}>
            Run script
          </button>
        )}
      </div>
      <p className="muted">
        {a.client?.name ?? 'No client'}
        {a.site ? ` / ${a.site.name}` : ''} · {a.never_connected && a.status !== 'online' ? NEVER_CONNECTED : `last seen ${ago(a.last_seen, now)}`}
        {liveNote(live.state)}
      </p>
      {running && can('scripts:run') && <RunScriptPanel agentId={id} live={live} offline={a.status !== 'online'} />}
      <div className="grid-2">
        <Section id="facts" title="Facts">
          <dl className="facts">
            <dt>Operating system</dt>
            <dd>{osOf(a)}</dd>
            <dt>Platform</dt>
            <dd>
              {a.plat} ({a.monitoring_type})
            </dd>
            <dt>Machine name</dt>
            <dd>{a.os_hostname ?? '—'}</dd>
            <dt>Agent version</dt>
            <dd>{a.version}</dd>
            <dt>Logged-in user</dt>
            <dd>{a.logged_in_username ?? '—'}</dd>
            <dt>Local IP</dt>
            <dd>{a.local_ip ?? '—'}</dd>
            <dt>Public IP</dt>
            <dd>{a.public_ip ?? '—'}</dd>
            <dt>CPU</dt>
            <dd>{a.cpu_model ?? '—'}</dd>
            <dt>Memory</dt>
            <dd>{a.total_ram === null ? '—' : `${a.total_ram} GB`}</dd>
            <dt>Patches pending</dt>
            <dd>{a.patches_pending}</dd>
            <dt>Enrolled</dt>
            <dd>{when(a.created_at)}</dd>
            <dt>Last seen</dt>
            <dd>{a.never_connected && a.status !== 'online' ? NEVER_CONNECTED : when(a.last_seen)}</dd>
          </dl>
        </Section>
        <Section id="disks" title="Disks">
          {a.disks && a.disks.length > 0 ? (
            <div className="table-scroll" tabIndex={0}>
              <table className="striped">
                <thead>
                  <tr>
                    <th scope="col">Device</th>
                    <th scope="col">Free</th>
                    <th scope="col">Total</th>
                    <th scope="col">Used</th>
                  </tr>
                </thead>
                <tbody>
                  {a.disks.map((d) => (
                    <tr key={d.device}>
                      <td>{d.device}</td>
                      <td>{d.free}</td>
                      <td>{d.total}</td>
                      <td>
                        <progress value={d.percent} max={100} aria-label={`${d.device} used`} /> {d.percent} %
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="muted">No disks reported yet.</p>
          )}
        </Section>
      </div>
      {can('alerts:read') && <AgentAlerts id={id} />}
      {can('checks:read') && <AgentChecks id={id} />}
      {can('tasks:read') && <AgentTasks id={id} />}
      <AgentRuns id={id} />
    </>
  );
}

function AgentAlerts({ id }: { id: string }) {
  const alerts = useQuery({ queryKey: ['agent-alerts', id], queryFn: () => ok(api.GET('/api/v3/alerts', { params: { query: { agent: id } } })) });
  return (
    <Section id="agent-alerts" title="Alerts">
      {alerts.isPending ? <Loading what="alerts" /> : alerts.isError ? <ErrorNote error={alerts.error} /> : <AlertsTable alerts={alerts.data} hideAgent emptyText="No open alerts." />}
    </Section>
  );
}

function AgentChecks({ id }: { id: string }) {
  const checks = useQuery({ queryKey: ['agent-checks', id], queryFn: () => ok(api.GET('/api/v3/checks', { params: { query: { agent: id } } })) });
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Section id="checks" title="Checks">
      {checks.isPending ? (
        <Loading what="checks" />
      ) : checks.isError ? (
        <ErrorNote error={checks.error} />
      ) : checks.data.length === 0 ? (
        <p className="muted">No checks.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="striped">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Status</th>
                <th scope="col">Result</th>
                <th scope="col">Last run</th>
                <th scope="col">History</th>
              </tr>
            </thead>
            <tbody>
              {checks.data.map((c) => (
                <CheckRow key={c.id} agentId={id} check={c} open={open === c.id} toggle={() => setOpen(open === c.id ? null : c.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function CheckRow({ agentId, check: c, open, toggle }: { agentId: string; check: Check; open: boolean; toggle: () => void }) {
  const history = useQuery({
    queryKey: ['check-history', agentId, c.id],
    queryFn: () => ok(api.GET('/api/v3/checks/{id}/history', { params: { path: { id: c.id }, query: { limit: 20 } } })),
    enabled: open,
  });
  return (
    <>
      <tr>
        <td>
          {c.name}
          <br />
          <small className="muted">
            {c.check_type}, every {c.run_interval} s
          </small>
        </td>
        <td>
          <StatusBadge status={c.status} />
        </td>
        <td>{c.more_info ?? '—'}</td>
        <td>{ago(c.last_run)}</td>
        <td>
          <ShowHide open={open} toggle={toggle} what={`history of ${c.name}`} />
        </td>
      </tr>
      {open && (
        <DetailRow query={history} what="history" empty="No results yet.">
          {(r) => (
            <>
              <StatusBadge status={r.status} /> {when(r.created_at)} {r.more_info ? `· ${r.more_info}` : ''}
            </>
          )}
        </DetailRow>
      )}
    </>
  );
}

function AgentTasks({ id }: { id: string }) {
  const tasks = useQuery({ queryKey: ['agent-tasks', id], queryFn: () => ok(api.GET('/api/v3/tasks', { params: { query: { agent: id } } })) });
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Section id="tasks" title="Tasks">
      {tasks.isPending ? (
        <Loading what="tasks" />
      ) : tasks.isError ? (
        <ErrorNote error={tasks.error} />
      ) : tasks.data.length === 0 ? (
        <p className="muted">No scheduled tasks.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="striped">
            <thead>
              <tr>
                <th scope="col">Task</th>
                <th scope="col">Schedule (UTC)</th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
                <th scope="col">Runs</th>
              </tr>
            </thead>
            <tbody>
              {tasks.data.map((t) => (
                <TaskRow key={t.id} agentId={id} task={t} open={open === t.id} toggle={() => setOpen(open === t.id ? null : t.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function TaskRow({ agentId, task: t, open, toggle }: { agentId: string; task: Task; open: boolean; toggle: () => void }) {
  const runs = useQuery({
    queryKey: ['task-runs', agentId, t.id],
    queryFn: () => ok(api.GET('/api/v3/tasks/{id}/runs', { params: { path: { id: t.id }, query: { limit: 20 } } })),
    enabled: open,
  });
  return (
    <>
      <tr>
        <td>
          {t.name}
          {!t.enabled && <small className="muted"> (disabled)</small>}
        </td>
        <td>
          <code>{t.schedule}</code>
        </td>
        <td>{when(t.next_run_at)}</td>
        <td>
          {when(t.last_run_at)}
          {t.last_retcode !== null ? ` · return code ${t.last_retcode}` : ''}
        </td>
        <td>
          <ShowHide open={open} toggle={toggle} what={`runs of ${t.name}`} />
        </td>
      </tr>
      {open && (
        <DetailRow query={runs} what="runs" empty="No runs yet.">
          {(r) => (
            <>
              <StatusBadge status={r.status} /> due {when(r.due_at)}
              {r.retcode !== null ? ` · return code ${r.retcode}` : ''}
              {r.error ? ` · ${r.error}` : ''}
            </>
          )}
        </DetailRow>
      )}
    </>
  );
}

function AgentRuns({ id }: { id: string }) {
  const runs = useQuery({
    queryKey: ['agent-runs', id],
    queryFn: () => ok(api.GET('/api/v3/agents/{agentId}/runs', { params: { path: { agentId: Number(id) }, query: { limit: 25 } } })),
  });
  const [open, setOpen] = useState<number | null>(null);
  return (
    <Section id="runs" title="Run history">
      {runs.isPending ? (
        <Loading what="runs" />
      ) : runs.isError ? (
        <ErrorNote error={runs.error} />
      ) : runs.data.length === 0 ? (
        <p className="muted">No script has run on this agent.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="striped">
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">Script</th>
                <th scope="col">Status</th>
                <th scope="col">Return code</th>
                <th scope="col">Time</th>
                <th scope="col">Output</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.map((r) => (
                <RunRow key={r.id} run={r} open={open === r.id} toggle={() => setOpen(open === r.id ? null : r.id)} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function RunRow({ run: r, open, toggle }: { run: ScriptRun; open: boolean; toggle: () => void }) {
  return (
    <>
      <tr>
        <td>{when(r.created_at)}</td>
        <td>{r.script_name ?? `script ${r.script ?? '—'}`}</td>
        <td>
          <StatusBadge status={r.status} />
        </td>
        <td>{r.retcode ?? '—'}</td>
        <td>{r.execution_time !== null ? `${r.execution_time} s` : '—'}</td>
        <td>
          <button type="button" className="secondary outline small" aria-expanded={open} onClick={toggle}>
            {open ? 'Hide' : 'Show'}
            <span className="visually-hidden"> output of run {r.id}</span>
          </button>
        </td>
      </tr>
      {open && (
        <tr className="detail">
          <td colSpan={6}>
            {r.error && <p className="error">{r.error}</p>}
            <pre className="output">{r.stdout || r.stderr ? `${r.stdout}${r.stderr}` : '(no output)'}</pre>
          </td>
        </tr>
      )}
    </>
  );
}

/** The Show/Hide button of a row whose details open below it. */
function ShowHide({ open, toggle, what }: { open: boolean; toggle: () => void; what: string }) {
  return (
    <button type="button" className="secondary outline small" aria-expanded={open} onClick={toggle}>
      {open ? 'Hide' : 'Show'}
      <span className="visually-hidden"> {what}</span>
    </button>
  );
}

/** The row under an opened one: its query's items as a list (loading, error and empty said as such). */
function DetailRow<T extends { id: number }>({
  query,
  what,
  empty,
  children,
}: {
  query: UseQueryResult<T[]>;
  what: string;
  empty: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <tr className="detail">
      <td colSpan={5}>
        {query.isPending ? (
          <Loading what={what} />
        ) : query.isError ? (
          <ErrorNote error={query.error} />
        ) : query.data.length === 0 ? (
          <p className="muted">{empty}</p>
        ) : (
          <ol className="history">
            {query.data.map((item) => (
              <li key={item.id}>{children(item)}</li>
            ))}
          </ol>
        )}
      </td>
    </tr>
  );
}
