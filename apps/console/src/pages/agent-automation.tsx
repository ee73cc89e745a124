import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, errorText, ok } from '../api/http';
import { useScripts } from '../api/queries';
import { useSession } from '../api/session';
import { type AlertSeverity, type Check, CHECK_TYPE_LIST, type CheckType, type ItemSource, type PolicyOverride, SEVERITIES, type Task } from '../api/schemas';
import { ErrorNote, Loading, Section, StatusBadge } from '../components/bits';
import { fieldProblems, FormErrors, invalidField } from '../components/form-errors';
import { ago, when } from '../components/format';
import { DetailRow, ShowHide } from '../components/rows';

/*
 * An agent's checks and tasks: listed with their state, and (with checks:write, tasks:write) added, edited,
 * disabled or enabled, and deleted in place. The forms send what the API takes (docs/api.md, "Scripts, checks and
 * tasks") and show its 400 under their fields; a task's schedule previews its next runs as the server computes
 * them (GET /api/v3/tasks/schedule-preview/).
 */

// ---- Applied by ---------------------------------------------------------------------------------------------

/** The agent's effective policy (GET /api/v3/agents/{id}/effective-policy/): why each policy item applies. */
function useEffectivePolicy(agentId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['effective-policy', agentId],
    queryFn: () => ok(api.GET('/api/v3/agents/{agentId}/effective-policy', { params: { path: { agentId: Number(agentId) } } })),
    enabled,
  });
}

/**
 * Who applies an item to the agent: the agent itself, or a policy (docs/policies.md), with what matched ("tag
 * finance", "client Acme") when the operator may read policies.
 */
function AppliedBy({ agentId, rowId, kind, source }: { agentId: string; rowId: number; kind: 'check' | 'task'; source: ItemSource }) {
  const { can } = useSession();
  const isPolicy = source.type === 'policy' && !!source.policy;
  const effective = useEffectivePolicy(agentId, isPolicy && can('policies:read'));
  if (!isPolicy || !source.policy) return <span>This agent</span>;
  const items = effective.data ? (kind === 'check' ? effective.data.checks : effective.data.tasks) : [];
  const reason = items.find((i) => i.id === rowId)?.source.reason;
  return (
    <span>
      Policy {source.policy.name}
      {source.enforced && (
        <>
          {' '}
          <small className="muted">(enforced)</small>
        </>
      )}
      {reason && (
        <>
          <br />
          <small className="muted">matched by {reason}</small>
        </>
      )}
    </span>
  );
}

/** The agent's policy overrides (GET /api/v3/agents/{id}/policy-overrides/). */
function useOverrides(agentId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['policy-overrides', agentId],
    queryFn: () => ok(api.GET('/api/v3/agents/{agentId}/policy-overrides', { params: { path: { agentId: Number(agentId) } } })),
    enabled,
  });
}

/**
 * Disable (or enable again) one item of a non-enforced policy on this agent only: the agent's overrides are replaced
 * with the same list, this item's `disabled` flipped (PUT /api/v3/agents/{id}/policy-overrides/).
 */
function OverrideToggle({ agentId, source, name, what, overrides }: { agentId: string; source: ItemSource; name: string; what: string; overrides: PolicyOverride[] }) {
  const qc = useQueryClient();
  const policyId = source.policy?.id;
  const mine = overrides.find((o) => o.policy === policyId && o.key === source.key);
  const disabled = mine?.disabled ?? false;
  const save = useMutation({
    mutationFn: () => {
      const others = overrides.filter((o) => o !== mine);
      const adjusted = mine && (mine.settings !== null || mine.run_interval !== null || mine.fails_b4_alert !== null);
      const next = [...others, ...(disabled && !adjusted ? [] : [{ ...(mine ?? { policy: policyId!, key: source.key!, settings: null, run_interval: null, fails_b4_alert: null }), disabled: !disabled }])];
      const body = next.map(({ policy, key, disabled: d, settings, run_interval, fails_b4_alert }) => ({
        policy,
        key,
        disabled: d,
        ...(settings !== null ? { settings } : {}),
        ...(run_interval !== null ? { run_interval } : {}),
        ...(fails_b4_alert !== null ? { fails_b4_alert } : {}),
      }));
      return ok(api.PUT('/api/v3/agents/{agentId}/policy-overrides', { params: { path: { agentId: Number(agentId) } }, body }));
    },
    onSuccess: () => {
      for (const key of ['policy-overrides', 'agent-checks', 'agent-tasks']) void qc.invalidateQueries({ queryKey: [key, agentId] });
    },
  });
  return (
    <>
      <button type="button" className="small secondary outline" disabled={save.isPending} onClick={() => save.mutate()}>
        {disabled ? 'Enable on this agent' : 'Disable on this agent'}
        <span className="visually-hidden">
          {' '}
          {what} {name}
        </span>
      </button>
      {save.isError && <ErrorNote error={save.error} />}
    </>
  );
}

// ---- Checks -------------------------------------------------------------------------------------------------

interface SettingField {
  key: string;
  label: string;
  kind: 'text' | 'number' | 'select' | 'lines' | 'script';
  required: boolean;
  options?: readonly string[];
  hint?: string;
}

/** What each check type watches: its settings as the API names them (check-settings.ts), with the form's labels. */
const CHECK_FIELDS: Record<CheckType, SettingField[]> = {
  diskspace: [
    { key: 'drive', label: 'Drive or mount point', kind: 'text', required: true, hint: 'a drive letter such as C: or a mount point such as /' },
    { key: 'threshold_percent', label: 'Alert below this % free', kind: 'number', required: true },
  ],
  cpuload: [{ key: 'threshold_percent', label: 'Alert above this % CPU load', kind: 'number', required: true }],
  memory: [{ key: 'threshold_percent', label: 'Alert above this % memory used', kind: 'number', required: true }],
  ping: [{ key: 'target', label: 'Host name or IP address', kind: 'text', required: true }],
  winsvc: [{ key: 'service_name', label: 'Windows service name', kind: 'text', required: true }],
  script: [
    { key: 'script', label: 'Script', kind: 'script', required: true, hint: 'fails when it exits with a code other than 0' },
    { key: 'args', label: 'Args (one per line)', kind: 'lines', required: false },
    { key: 'timeout', label: 'Timeout (seconds)', kind: 'number', required: false },
  ],
  eventlog: [
    { key: 'log_name', label: 'Event log', kind: 'select', required: true, options: ['Application', 'System', 'Security', 'Setup'] },
    { key: 'event_id', label: 'Event ID (optional)', kind: 'number', required: false },
    { key: 'event_type', label: 'Event type (optional)', kind: 'select', required: false, options: ['', 'error', 'warning', 'information'] },
    { key: 'search_text', label: 'Text to look for (optional)', kind: 'text', required: false },
  ],
};

const CHECK_TYPE_LABELS: Record<CheckType, string> = {
  diskspace: 'Disk space',
  cpuload: 'CPU load',
  memory: 'Memory',
  ping: 'Ping',
  winsvc: 'Windows service',
  script: 'Script',
  eventlog: 'Event log',
};

/** A new check's settings until the operator changes them. */
const CHECK_DEFAULTS: Record<CheckType, Record<string, string>> = {
  diskspace: { drive: '/', threshold_percent: '10' },
  cpuload: { threshold_percent: '90' },
  memory: { threshold_percent: '90' },
  ping: { target: '' },
  winsvc: { service_name: '' },
  script: { script: '', args: '', timeout: '' },
  eventlog: { log_name: 'System', event_id: '', event_type: '', search_text: '' },
};

const CHECK_LABELS: Record<string, string> = {
  agent: 'Agent',
  check_type: 'Type',
  name: 'Name',
  settings: 'Settings',
  run_interval: 'Run every (seconds)',
  fails_b4_alert: 'Failures before an alert',
  severity: 'Alert severity',
  enabled: 'Enabled',
  ...Object.fromEntries(Object.values(CHECK_FIELDS).flatMap((fields) => fields.map((f) => [`settings.${f.key}`, f.label.replace(/ \(optional\)$/, '')]))),
};

/** The form's text of a setting (a list one per line). */
function settingText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.join('\n');
  return String(v);
}

/** The settings to send: numbers as numbers (what is not one is sent as typed: the API names it), empty optional ones left out. */
function settingsOf(type: CheckType, values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of CHECK_FIELDS[type]) {
    const raw = values[f.key] ?? '';
    if (raw.trim() === '' && !f.required) continue;
    if (f.kind === 'number' || f.kind === 'script') out[f.key] = raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    else if (f.kind === 'lines') out[f.key] = raw.split('\n').filter((l) => l !== '');
    else out[f.key] = raw;
  }
  return out;
}

export function AgentChecks({ id }: { id: string }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const checks = useQuery({ queryKey: ['agent-checks', id], queryFn: () => ok(api.GET('/api/v3/checks', { params: { query: { agent: id } } })) });
  const [open, setOpen] = useState<number | null>(null);
  const [form, setForm] = useState<'new' | Check | null>(null);
  const writable = can('checks:write');
  const mayOverride = can('agents:write');
  const overrides = useOverrides(id, mayOverride);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['agent-checks', id] });
  const toggle = useMutation({
    mutationFn: (c: Check) => ok(api.PATCH('/api/v3/checks/{id}', { params: { path: { id: c.id } }, body: { enabled: !c.enabled } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (c: Check) => ok(api.DELETE('/api/v3/checks/{id}', { params: { path: { id: c.id } } })),
    onSuccess: refresh,
  });
  return (
    <Section
      id="checks"
      title="Checks"
      actions={
        writable && form === null ? (
          <button type="button" className="small" onClick={() => setForm('new')}>
            Add check
          </button>
        ) : undefined
      }
    >
      {form !== null && (
        <CheckForm
          agentId={id}
          check={form === 'new' ? null : form}
          onDone={() => {
            setForm(null);
            refresh();
          }}
          onCancel={() => setForm(null)}
        />
      )}
      <ErrorNote error={toggle.error ?? remove.error} />
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
                <th scope="col">Applied by</th>
                <th scope="col">Status</th>
                <th scope="col">Result</th>
                <th scope="col">Last run</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {checks.data.map((c) => (
                <CheckRow
                  key={c.id}
                  agentId={id}
                  check={c}
                  open={open === c.id}
                  toggle={() => setOpen(open === c.id ? null : c.id)}
                  actions={
                    c.source.type === 'policy' ? (
                      mayOverride && !c.source.enforced && overrides.data ? (
                        <OverrideToggle agentId={id} source={c.source} name={c.name} what="check" overrides={overrides.data} />
                      ) : null
                    ) : writable ? (
                      <>
                        <button type="button" className="small secondary outline" onClick={() => setForm(c)}>
                          Edit<span className="visually-hidden"> check {c.name}</span>
                        </button>
                        <button type="button" className="small secondary outline" onClick={() => toggle.mutate(c)}>
                          {c.enabled ? 'Disable' : 'Enable'}
                          <span className="visually-hidden"> check {c.name}</span>
                        </button>
                        <button
                          type="button"
                          className="small contrast outline"
                          onClick={() => {
                            if (window.confirm(`Delete the check ${c.name}? Its history goes with it.`)) remove.mutate(c);
                          }}
                        >
                          Delete<span className="visually-hidden"> check {c.name}</span>
                        </button>
                      </>
                    ) : null
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function CheckRow({ agentId, check: c, open, toggle, actions }: { agentId: string; check: Check; open: boolean; toggle: () => void; actions: ReactNode }) {
  const history = useQuery({
    queryKey: ['check-history', agentId, c.id],
    queryFn: () => ok(api.GET('/api/v3/checks/{id}/history', { params: { path: { id: c.id }, query: { limit: 20 } } })),
    enabled: open,
  });
  return (
    <>
      <tr data-check-id={c.id}>
        <td>
          {c.name}
          {!c.enabled && <StatusBadge status="disabled" />}
          <br />
          <small className="muted">
            {CHECK_TYPE_LABELS[c.check_type]}, every {c.run_interval} s
          </small>
        </td>
        <td>
          <AppliedBy agentId={agentId} rowId={c.id} kind="check" source={c.source} />
        </td>
        <td>
          <StatusBadge status={c.status} />
        </td>
        <td>{c.more_info ?? '—'}</td>
        <td>{ago(c.last_run)}</td>
        <td className="actions">
          <ShowHide open={open} toggle={toggle} what={`history of ${c.name}`} />
          {actions}
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

/** Add a check (`check` null) or edit one: its type is fixed once made (the API changes everything else). */
function CheckForm({ agentId, check, onDone, onCancel }: { agentId: string; check: Check | null; onDone: () => void; onCancel: () => void }) {
  const ids = useId();
  const { can } = useSession();
  const scripts = useScripts();
  const [type, setType] = useState<CheckType>(check?.check_type ?? 'diskspace');
  const [values, setValues] = useState<Record<string, string>>(() =>
    check ? Object.fromEntries(CHECK_FIELDS[check.check_type].map((f) => [f.key, settingText(check.settings[f.key])])) : CHECK_DEFAULTS.diskspace,
  );
  const [name, setName] = useState(check?.name ?? '');
  const [interval, setIntervalS] = useState(String(check?.run_interval ?? 120));
  const [fails, setFails] = useState(String(check?.fails_b4_alert ?? 1));
  const [severity, setSeverity] = useState<AlertSeverity>(check?.severity ?? 'warning');
  const [enabled, setEnabled] = useState(check?.enabled ?? true);
  const save = useMutation({
    mutationFn: () => {
      const common = { run_interval: Number(interval), fails_b4_alert: Number(fails), severity, enabled, settings: settingsOf(type, values) };
      if (check) {
        const body = { ...common, ...(name.trim() && name.trim() !== check.name ? { name: name.trim() } : {}) };
        return ok(api.PATCH('/api/v3/checks/{id}', { params: { path: { id: check.id } }, body }));
      }
      return ok(api.POST('/api/v3/checks', { body: { agent: agentId, check_type: type, ...common, ...(name.trim() ? { name: name.trim() } : {}) } }));
    },
    onSuccess: onDone,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const title = check ? `Edit check ${check.name}` : 'New check';
  const types = CHECK_TYPE_LIST.filter((t) => t !== 'script' || can('scripts:run'));
  const bad = (field: string) => invalidField(save.error, field) || undefined;
  return (
    <section className="panel" aria-label={title}>
      <h3>{title}</h3>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <label>
            Type
            <select
              value={type}
              disabled={check !== null}
              onChange={(e) => {
                const t = e.target.value as CheckType;
                setType(t);
                setValues(CHECK_DEFAULTS[t]);
              }}
            >
              {types.map((t) => (
                <option key={t} value={t}>
                  {CHECK_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
          {CHECK_FIELDS[type].map((f) => (
            <SettingInput key={`${type}-${f.key}`} field={f} value={values[f.key] ?? ''} invalid={bad(`settings.${f.key}`)} scripts={scripts.data ?? []} onChange={(v) => setValues({ ...values, [f.key]: v })} />
          ))}
          <label>
            Name (optional)
            <input value={name} onChange={(e) => setName(e.target.value)} placeholder="made from the type and settings" aria-invalid={bad('name')} />
          </label>
          <label>
            Run every (seconds)
            <input type="number" value={interval} onChange={(e) => setIntervalS(e.target.value)} aria-invalid={bad('run_interval')} aria-describedby={`${ids}-interval`} />
            <small id={`${ids}-interval`}>5 to 86,400</small>
          </label>
          <label>
            Failures before an alert
            <input type="number" value={fails} onChange={(e) => setFails(e.target.value)} aria-invalid={bad('fails_b4_alert')} />
          </label>
          <label>
            Alert severity
            <select value={severity} onChange={(e) => setSeverity(e.target.value as AlertSeverity)}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <label className="wide">
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled (a disabled check is not run)
          </label>
        </div>
        <FormErrors error={save.error} labels={CHECK_LABELS} />
        <div className="form-actions">
          <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
            {check ? 'Save check' : 'Create check'}
          </button>
          <button type="button" className="secondary outline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}

function SettingInput({
  field: f,
  value,
  invalid,
  scripts,
  onChange,
}: {
  field: SettingField;
  value: string;
  invalid: true | undefined;
  scripts: Array<{ id: number; name: string; shell: string }>;
  onChange: (v: string) => void;
}) {
  const id = useId();
  const hint = f.hint ? (
    <small id={`${id}-hint`} className="muted">
      {f.hint}
    </small>
  ) : null;
  const props = { id, 'aria-invalid': invalid, 'aria-describedby': f.hint ? `${id}-hint` : undefined };
  let input: ReactNode;
  switch (f.kind) {
    case 'select':
      input = (
        <select {...props} value={value} onChange={(e) => onChange(e.target.value)}>
          {(f.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o === '' ? 'any' : o}
            </option>
          ))}
        </select>
      );
      break;
    case 'script':
      input = (
        <select {...props} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose a script</option>
          {scripts.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name} ({s.shell})
            </option>
          ))}
        </select>
      );
      break;
    case 'lines':
      input = <textarea {...props} rows={2} value={value} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'number':
      input = <input {...props} type="number" value={value} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'text':
      input = <input {...props} value={value} onChange={(e) => onChange(e.target.value)} />;
      break;
  }
  // The label names the field alone (its hint describes it): "Script", not "Script Choose a script…".
  return (
    <div>
      <label htmlFor={id}>{f.label}</label>
      {input}
      {hint}
    </div>
  );
}

// ---- Tasks --------------------------------------------------------------------------------------------------

const TASK_LABELS: Record<string, string> = { name: 'Name', script: 'Script', schedule: 'Schedule', enabled: 'Enabled', queue_if_offline: 'Queue if offline' };

export function AgentTasks({ id }: { id: string }) {
  const { can } = useSession();
  const qc = useQueryClient();
  const tasks = useQuery({ queryKey: ['agent-tasks', id], queryFn: () => ok(api.GET('/api/v3/tasks', { params: { query: { agent: id } } })) });
  const [open, setOpen] = useState<number | null>(null);
  const [form, setForm] = useState<'new' | Task | null>(null);
  // A task runs a script: changing one needs scripts:run as well (docs/api.md); deleting needs tasks:write only.
  const writable = can('tasks:write');
  const mayRun = writable && can('scripts:run');
  const mayOverride = can('agents:write');
  const overrides = useOverrides(id, mayOverride);
  const refresh = () => void qc.invalidateQueries({ queryKey: ['agent-tasks', id] });
  const toggle = useMutation({
    mutationFn: (t: Task) => ok(api.PATCH('/api/v3/tasks/{id}', { params: { path: { id: t.id } }, body: { enabled: !t.enabled } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (t: Task) => ok(api.DELETE('/api/v3/tasks/{id}', { params: { path: { id: t.id } } })),
    onSuccess: refresh,
  });
  return (
    <Section
      id="tasks"
      title="Tasks"
      actions={
        mayRun && form === null ? (
          <button type="button" className="small" onClick={() => setForm('new')}>
            Add task
          </button>
        ) : undefined
      }
    >
      {form !== null && (
        <TaskForm
          agentId={id}
          task={form === 'new' ? null : form}
          onDone={() => {
            setForm(null);
            refresh();
          }}
          onCancel={() => setForm(null)}
        />
      )}
      <ErrorNote error={toggle.error ?? remove.error} />
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
                <th scope="col">Applied by</th>
                <th scope="col">Schedule (UTC)</th>
                <th scope="col">Next run</th>
                <th scope="col">Last run</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {tasks.data.map((t) => (
                <TaskRow
                  key={t.id}
                  agentId={id}
                  task={t}
                  open={open === t.id}
                  toggle={() => setOpen(open === t.id ? null : t.id)}
                  actions={
                    t.source.type === 'policy' ? (
                      mayOverride && !t.source.enforced && overrides.data ? (
                        <OverrideToggle agentId={id} source={t.source} name={t.name} what="task" overrides={overrides.data} />
                      ) : null
                    ) : (
                      <>
                        {mayRun && (
                          <>
                            <button type="button" className="small secondary outline" onClick={() => setForm(t)}>
                              Edit<span className="visually-hidden"> task {t.name}</span>
                            </button>
                            <button type="button" className="small secondary outline" onClick={() => toggle.mutate(t)}>
                              {t.enabled ? 'Disable' : 'Enable'}
                              <span className="visually-hidden"> task {t.name}</span>
                            </button>
                          </>
                        )}
                        {writable && (
                          <button
                            type="button"
                            className="small contrast outline"
                            onClick={() => {
                              if (window.confirm(`Delete the task ${t.name}? Its runs go with it.`)) remove.mutate(t);
                            }}
                          >
                            Delete<span className="visually-hidden"> task {t.name}</span>
                          </button>
                        )}
                      </>
                    )
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

function TaskRow({ agentId, task: t, open, toggle, actions }: { agentId: string; task: Task; open: boolean; toggle: () => void; actions: ReactNode }) {
  const runs = useQuery({
    queryKey: ['task-runs', agentId, t.id],
    queryFn: () => ok(api.GET('/api/v3/tasks/{id}/runs', { params: { path: { id: t.id }, query: { limit: 20 } } })),
    enabled: open,
  });
  return (
    <>
      <tr data-task-id={t.id}>
        <td>
          {t.name}
          {!t.enabled && <StatusBadge status="disabled" />}
        </td>
        <td>
          <AppliedBy agentId={agentId} rowId={t.id} kind="task" source={t.source} />
        </td>
        <td>
          <code>{t.schedule}</code>
        </td>
        <td>{when(t.next_run_at)}</td>
        <td>
          {when(t.last_run_at)}
          {t.last_retcode !== null ? ` · return code ${t.last_retcode}` : ''}
        </td>
        <td className="actions">
          <ShowHide open={open} toggle={toggle} what={`runs of ${t.name}`} />
          {actions}
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

/** A value that follows `value` once it has not changed for `ms` (the preview is not asked at each key press). */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A due time as a person reads it, in the browser's time zone and in UTC (the schedule's own). */
function dueTime(iso: string, seconds: boolean): { local: string; utc: string } {
  const d = new Date(iso);
  const opts: Intl.DateTimeFormatOptions = { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}) };
  return { local: d.toLocaleString(undefined, opts), utc: d.toLocaleString(undefined, { hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), timeZone: 'UTC' }) };
}

/** The next runs of a schedule as the server computes them, or why it is not one. */
function SchedulePreview({ schedule, id }: { schedule: string; id: string }) {
  const settled = useSettled(schedule.trim(), 300);
  const preview = useQuery({
    queryKey: ['schedule-preview', settled],
    queryFn: () => ok(api.GET('/api/v3/tasks/schedule-preview', { params: { query: { schedule: settled } } })),
    enabled: settled !== '',
    retry: false,
    staleTime: 30_000,
  });
  if (settled === '') return null;
  if (preview.isPending) return <p id={id} className="muted small">Working out the next runs…</p>;
  if (preview.isError) {
    const problems = fieldProblems(preview.error);
    return (
      <p id={id} className="error small">
        Not a schedule: {problems.length ? problems.map((p) => p.message).join('; ') : errorText(preview.error)}
      </p>
    );
  }
  const seconds = settled.split(/\s+/).length === 6;
  return (
    <div id={id}>
      <span className="small">Next runs:</span>
      <ol className="next-runs" aria-label="Next runs">
        {preview.data.next_runs.map((iso) => {
          const t = dueTime(iso, seconds);
          return (
            <li key={iso}>
              <time dateTime={iso}>{t.local}</time> <span className="muted">({t.utc} UTC)</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function TaskForm({ agentId, task, onDone, onCancel }: { agentId: string; task: Task | null; onDone: () => void; onCancel: () => void }) {
  const ids = useId();
  const scripts = useScripts();
  const [name, setName] = useState(task?.name ?? '');
  const [script, setScript] = useState(task ? String(task.script) : '');
  const [schedule, setSchedule] = useState(task?.schedule ?? '0 3 * * *');
  const [enabled, setEnabled] = useState(task?.enabled ?? true);
  const [queue, setQueue] = useState(task?.queue_if_offline ?? false);
  const save = useMutation({
    mutationFn: () => {
      const body = { name: name.trim(), script: Number(script), schedule: schedule.trim(), enabled, queue_if_offline: queue };
      if (task) return ok(api.PATCH('/api/v3/tasks/{id}', { params: { path: { id: task.id } }, body }));
      return ok(api.POST('/api/v3/tasks', { body: { agent: agentId, ...body } }));
    },
    onSuccess: onDone,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const title = task ? `Edit task ${task.name}` : 'New task';
  const bad = (field: string) => invalidField(save.error, field) || undefined;
  return (
    <section className="panel" aria-label={title}>
      <h3>{title}</h3>
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <label>
            Name
            <input value={name} onChange={(e) => setName(e.target.value)} aria-invalid={bad('name')} />
          </label>
          <label>
            Script
            <select value={script} onChange={(e) => setScript(e.target.value)} aria-invalid={bad('script')}>
              <option value="">{scripts.isPending ? 'Loading scripts…' : 'Choose a script'}</option>
              {scripts.data?.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.shell})
                </option>
              ))}
            </select>
          </label>
          <label className="wide">
            Schedule (cron, UTC)
            <input value={schedule} onChange={(e) => setSchedule(e.target.value)} aria-invalid={bad('schedule')} aria-describedby={`${ids}-help ${ids}-preview`} spellCheck={false} />
            <small id={`${ids}-help`}>minute hour day month weekday, e.g. 0 3 * * 1-5 (03:00 UTC, Monday to Friday); a sixth field first for seconds</small>
          </label>
        </div>
        <SchedulePreview schedule={schedule} id={`${ids}-preview`} />
        <div className="form-grid">
          <label>
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
          </label>
          <label>
            <input type="checkbox" checked={queue} onChange={(e) => setQueue(e.target.checked)} /> Queue for the agent when it is offline
          </label>
        </div>
        <FormErrors error={save.error} labels={TASK_LABELS} />
        <div className="form-actions">
          <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
            {task ? 'Save task' : 'Create task'}
          </button>
          <button type="button" className="secondary outline" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
