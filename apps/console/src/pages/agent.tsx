import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorText, ok } from '../api/http';
import { useAgentLive } from '../api/agent-live';
import { useSession } from '../api/session';
import type { ScriptRun } from '../api/schemas';
import { ErrorNote, Loading, NEVER_CONNECTED, Section, StatusBadge } from '../components/bits';
import { ago, osOf, useNow, when } from '../components/format';
import { liveNote } from '../components/live-note';
import { RunOutput } from '../components/run-output';
import { CustomFieldValuesPanel } from '../components/custom-field-values';
import { AlertsTable } from './alerts';
import { RunScriptPanel } from './run-script';
import { AgentChecks, AgentTasks } from './agent-automation';
import { AgentTagsAndMaintenance } from './agent-tags';
import { AgentRemoteAccess } from './agent-remote';

/** One agent: its facts and disks, checks, tasks, alerts and script runs, live from /rmm/{agent_id}/. */
export function AgentPage({ id }: { id: string }) {
  const { can } = useSession();
  const live = useAgentLive(id);
  const agent = useQuery({ queryKey: ['agent', id], queryFn: () => ok(api.GET('/api/v3/agents/{agentId}', { params: { path: { agentId: Number(id) } } })) });
  const [running, setRunning] = useState(false);
  const now = useNow();
  const qc = useQueryClient();
  // The answer to an enrollment_conflict for a reinstalled device: its next registration within 24 h takes this agent over.
  const reenroll = useMutation({
    mutationFn: () => ok(api.POST('/api/v3/agents/{agentId}/reenroll', { params: { path: { agentId: Number(id) } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['agent-alerts', id] }),
  });

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
          {a.maintenance && (
            <>
              {' '}
              <span className="badge badge-maintenance">maintenance</span>
            </>
          )}
        </h1>
        <div className="page-actions">
          {can('agents:write') && (
            <button
              type="button"
              className="secondary outline"
              disabled={reenroll.isPending}
              title="For a reinstall of this device without its state file: its next registration within 24 hours keeps this agent (the old installation's secret stops working)"
              onClick={() => reenroll.mutate()}
            >
              Allow re-enrollment
            </button>
          )}
          {can('scripts:run') && (
            <button type="button" aria-expanded={running} aria-controls="run-script" onClick={() => setRunning(!running)}>
              Run script
            </button>
          )}
        </div>
      </div>
      {reenroll.isSuccess && (
        <p role="status" className="ok">
          Re-enrollment allowed until {when(reenroll.data.allowed_until)}: run the installer again on the device before then; it keeps this agent, and the old installation&apos;s secret stops working.
        </p>
      )}
      {reenroll.isError && (
        <p role="alert" className="error">
          {errorText(reenroll.error)}
        </p>
      )}
      <p className="muted">
        {a.client?.name ?? 'No client'}
        {a.site ? ` / ${a.site.name}` : ''} · {a.never_connected && a.status !== 'online' ? NEVER_CONNECTED : `last seen ${ago(a.last_seen, now)}`}
        {liveNote(live.state)}
      </p>
      {running && can('scripts:run') && <RunScriptPanel agentId={id} live={live} offline={a.status !== 'online'} />}
      <AgentTagsAndMaintenance agent={a} canEdit={can('agents:write')} />
      <AgentRemoteAccess agentId={id} offline={a.status !== 'online'} />
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
      <Section id="agent-fields" title="Custom fields">
        <CustomFieldValuesPanel
          scope="agent"
          idPrefix={`agent-${id}`}
          values={a.custom_fields}
          save={
            can('agents:write')
              ? async (changes) => {
                  await ok(api.PUT('/api/v3/agents/{agentId}/custom-fields', { params: { path: { agentId: Number(id) } }, body: changes }));
                  await qc.invalidateQueries({ queryKey: ['agent', id] });
                }
              : undefined
          }
        />
      </Section>
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
        <td>
          {/* A queued run starts when its agent takes it, not when it was queued: both are shown. */}
          {r.started_at ? when(r.started_at) : r.status === 'queued' ? 'not yet' : 'never'}
          {r.expires_at !== null && (
            <>
              <br />
              <small className="muted">queued {when(r.created_at)}</small>
            </>
          )}
        </td>
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
            <RunOutput stdout={r.stdout} stderr={r.stderr} runId={r.id} />
          </td>
        </tr>
      )}
    </>
  );
}
