import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/http';
import type { components } from '../api/openapi';
import { useClients, useScripts } from '../api/queries';
import { useSession } from '../api/session';
import { ErrorNote, Loading, Section } from '../components/bits';
import { ClientPicker } from '../components/client-picker';
import { FormErrors } from '../components/form-errors';

type Policy = components['schemas']['PolicyDto'];
type PolicyBody = components['schemas']['CreatePolicyDto'];
type CheckType = components['schemas']['PolicyCheckInputDto']['check_type'];

const CHECK_TYPES: CheckType[] = ['diskspace', 'ping', 'cpuload', 'memory', 'winsvc', 'script', 'eventlog'];
const PLATFORMS = ['windows', 'linux', 'darwin'] as const;
const MONITORING = ['server', 'workstation'] as const;

/** A comma-separated field as a list ("finance, vip" → ["finance", "vip"]). */
const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

interface CheckRow {
  check_type: CheckType;
  settings: string;
}
interface TaskRow {
  name: string;
  script: string;
  schedule: string;
  args: string;
}
interface WindowRow {
  schedule: string;
  duration_minutes: string;
  timezone: string;
}

interface Draft {
  name: string;
  description: string;
  priority: string;
  enabled: boolean;
  enforced: boolean;
  clients: number[];
  tagsAny: string;
  tagsAll: string;
  platforms: string[];
  monitoring: string[];
  excludeAgents: string;
  excludeTags: string;
  checks: CheckRow[];
  tasks: TaskRow[];
  windows: WindowRow[];
}

const EMPTY: Draft = {
  name: '',
  description: '',
  priority: '500',
  enabled: true,
  enforced: false,
  clients: [],
  tagsAny: '',
  tagsAll: '',
  platforms: [],
  monitoring: [],
  excludeAgents: '',
  excludeTags: '',
  checks: [],
  tasks: [],
  windows: [],
};

function draftOf(p: Policy): Draft {
  return {
    name: p.name,
    description: p.description ?? '',
    priority: String(p.priority),
    enabled: p.enabled,
    enforced: p.enforced,
    clients: p.targets.clients ?? [],
    tagsAny: (p.targets.tags_any ?? []).join(', '),
    tagsAll: (p.targets.tags_all ?? []).join(', '),
    platforms: p.targets.platforms ?? [],
    monitoring: p.targets.monitoring_types ?? [],
    excludeAgents: (p.exclude.agents ?? []).join(', '),
    excludeTags: (p.exclude.tags ?? []).join(', '),
    checks: p.checks.map((c) => ({ check_type: c.check_type, settings: JSON.stringify(c.settings) })),
    tasks: p.tasks.map((t) => ({ name: t.name, script: String(t.script), schedule: t.schedule, args: t.args.join(' ') })),
    windows: p.maintenance_windows.map((w) => ({ schedule: w.schedule, duration_minutes: String(w.duration_minutes), timezone: w.timezone })),
  };
}

/** The targets and exclusions of a draft: what the preview needs. */
function matchingOf(d: Draft): Pick<PolicyBody, 'enabled' | 'targets' | 'exclude'> {
  return {
    enabled: d.enabled,
    targets: {
      ...(d.clients.length ? { clients: d.clients } : {}),
      ...(list(d.tagsAny).length ? { tags_any: list(d.tagsAny) } : {}),
      ...(list(d.tagsAll).length ? { tags_all: list(d.tagsAll) } : {}),
      ...(d.platforms.length ? { platforms: d.platforms as Array<(typeof PLATFORMS)[number]> } : {}),
      ...(d.monitoring.length ? { monitoring_types: d.monitoring as Array<(typeof MONITORING)[number]> } : {}),
    },
    exclude: {
      ...(list(d.excludeAgents).length ? { agents: list(d.excludeAgents) } : {}),
      ...(list(d.excludeTags).length ? { tags: list(d.excludeTags) } : {}),
    },
  };
}

/** A settings text that is not JSON is sent as is inside an object the server refuses with its reason. */
const parseSettings = (text: string): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { not_json: text };
  }
};

function bodyOf(d: Draft): PolicyBody {
  return {
    name: d.name.trim(),
    description: d.description.trim() || null,
    priority: Number(d.priority),
    enforced: d.enforced,
    ...matchingOf(d),
    checks: d.checks.map((c) => ({ check_type: c.check_type, settings: parseSettings(c.settings) })),
    tasks: d.tasks.map((t) => ({ name: t.name, script: Number(t.script), schedule: t.schedule, args: t.args.trim() ? t.args.trim().split(/\s+/) : [] })),
    maintenance_windows: d.windows.map((w) => ({ schedule: w.schedule, duration_minutes: Number(w.duration_minutes), timezone: w.timezone })),
  };
}

/** Automation policies: the list (with how many agents each matches) and the editor, which previews before saving. */
export default function PoliciesPage() {
  const { can } = useSession();
  const qc = useQueryClient();
  const policies = useQuery({ queryKey: ['policies'], queryFn: () => ok(api.GET('/api/v3/policies')) });
  const [editing, setEditing] = useState<Policy | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => ok(api.DELETE('/api/v3/policies/{id}', { params: { path: { id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['policies'] }),
  });
  return (
    <>
      <div className="page-head">
        <h1>Policies</h1>
        {can('policies:write') && editing === null && (
          <button type="button" onClick={() => setEditing('new')}>
            New policy
          </button>
        )}
      </div>
      {editing !== null && <PolicyEditor key={editing === 'new' ? 'new' : editing.id} policy={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      <Section id="policies" title="All policies">
        <ErrorNote error={remove.error} />
        {policies.isPending ? (
          <Loading what="policies" />
        ) : policies.isError ? (
          <ErrorNote error={policies.error} />
        ) : policies.data.length === 0 ? (
          <p className="muted">No policies yet.</p>
        ) : (
          <div className="table-scroll" tabIndex={0}>
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Agents</th>
                  <th scope="col">Priority</th>
                  <th scope="col">Enforced</th>
                  <th scope="col">Enabled</th>
                  <th scope="col">Checks</th>
                  <th scope="col">Tasks</th>
                  {can('policies:write') && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {policies.data.map((p) => (
                  <tr key={p.id}>
                    <td>{p.name}</td>
                    <td data-testid={`agents-${p.id}`}>{p.agents}</td>
                    <td>{p.priority}</td>
                    <td>{p.enforced ? 'yes' : 'no'}</td>
                    <td>{p.enabled ? 'yes' : 'no'}</td>
                    <td>{p.checks.length}</td>
                    <td>{p.tasks.length}</td>
                    {can('policies:write') && (
                      <td>
                        <button type="button" className="small outline" onClick={() => setEditing(p)}>
                          Edit<span className="visually-hidden"> {p.name}</span>
                        </button>{' '}
                        <button
                          type="button"
                          className="small contrast outline"
                          onClick={() => {
                            if (window.confirm(`Delete the policy "${p.name}"? Its checks and tasks leave every agent.`)) remove.mutate(p.id);
                          }}
                        >
                          Delete<span className="visually-hidden"> {p.name}</span>
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </>
  );
}

function PolicyEditor({ policy, onDone }: { policy: Policy | null; onDone: () => void }) {
  const qc = useQueryClient();
  const clients = useClients();
  const scripts = useScripts();
  const [d, setD] = useState<Draft>(policy ? draftOf(policy) : EMPTY);
  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setD((prev) => ({ ...prev, [k]: v }));

  // The preview follows the targets and exclusions (half a second after the last change).
  const matching = JSON.stringify(matchingOf(d));
  const [asked, setAsked] = useState(matching);
  useEffect(() => {
    const timer = setTimeout(() => setAsked(matching), 500);
    return () => clearTimeout(timer);
  }, [matching]);
  const preview = useQuery({
    queryKey: ['policy-preview', policy?.id ?? null, asked],
    queryFn: () => ok(api.POST('/api/v3/policies/preview', { body: { ...(JSON.parse(asked) as object), ...(policy ? { id: policy.id } : {}) } })),
    retry: false,
  });

  const save = useMutation({
    mutationFn: () =>
      policy
        ? ok(api.PATCH('/api/v3/policies/{id}', { params: { path: { id: policy.id } }, body: bodyOf(d) }))
        : ok(api.POST('/api/v3/policies', { body: bodyOf(d) })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['policies'] });
      onDone();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const title = policy ? `Edit policy ${policy.name}` : 'New policy';
  return (
    <Section id="policy-editor" title={title}>
      <form onSubmit={submit}>
        <div className="form-grid">
          <label>
            Policy name
            <input required maxLength={200} value={d.name} onChange={(e) => set('name', e.target.value)} />
          </label>
          <label>
            Description
            <input maxLength={2000} value={d.description} onChange={(e) => set('description', e.target.value)} />
          </label>
          <label>
            Priority (1–1000, lower applies first)
            <input type="number" min={1} max={1000} required value={d.priority} onChange={(e) => set('priority', e.target.value)} />
          </label>
        </div>
        <fieldset className="checks">
          <legend>Mode</legend>
          <label>
            <input type="checkbox" checked={d.enabled} onChange={(e) => set('enabled', e.target.checked)} />
            Enabled
          </label>
          <label>
            <input type="checkbox" checked={d.enforced} onChange={(e) => set('enforced', e.target.checked)} />
            Enforced (wins over agents' own items, no per-agent override)
          </label>
        </fieldset>

        <h3>Targets</h3>
        <p className="muted">Every kind given must match; none given: every agent.</p>
        {clients.data && <ClientPicker clients={clients.data} value={d.clients} onChange={(v) => set('clients', v)} legend="Clients" />}
        <div className="form-grid">
          <label>
            Tags, any of (comma-separated)
            <input value={d.tagsAny} onChange={(e) => set('tagsAny', e.target.value)} />
          </label>
          <label>
            Tags, all of (comma-separated)
            <input value={d.tagsAll} onChange={(e) => set('tagsAll', e.target.value)} />
          </label>
        </div>
        <fieldset className="checks">
          <legend>Platforms</legend>
          {PLATFORMS.map((p) => (
            <label key={p}>
              <input type="checkbox" checked={d.platforms.includes(p)} onChange={(e) => set('platforms', e.target.checked ? [...d.platforms, p] : d.platforms.filter((x) => x !== p))} />
              {p}
            </label>
          ))}
        </fieldset>
        <fieldset className="checks">
          <legend>Monitoring types</legend>
          {MONITORING.map((m) => (
            <label key={m}>
              <input type="checkbox" checked={d.monitoring.includes(m)} onChange={(e) => set('monitoring', e.target.checked ? [...d.monitoring, m] : d.monitoring.filter((x) => x !== m))} />
              {m}
            </label>
          ))}
        </fieldset>

        <h3>Exclusions</h3>
        <div className="form-grid">
          <label>
            Excluded agent ids (comma-separated)
            <input value={d.excludeAgents} onChange={(e) => set('excludeAgents', e.target.value)} />
          </label>
          <label>
            Excluded tags (comma-separated)
            <input value={d.excludeTags} onChange={(e) => set('excludeTags', e.target.value)} />
          </label>
        </div>

        <h3>Checks</h3>
        {d.checks.map((c, i) => (
          <div className="form-grid" key={i} role="group" aria-label={`Check ${i + 1}`}>
            <label>
              Check {i + 1} type
              <select value={c.check_type} onChange={(e) => set('checks', d.checks.map((x, j) => (j === i ? { ...x, check_type: e.target.value as CheckType } : x)))}>
                {CHECK_TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
            <label>
              Check {i + 1} settings (JSON)
              <input value={c.settings} onChange={(e) => set('checks', d.checks.map((x, j) => (j === i ? { ...x, settings: e.target.value } : x)))} />
            </label>
            <button type="button" className="small secondary outline" onClick={() => set('checks', d.checks.filter((_, j) => j !== i))}>
              Remove check {i + 1}
            </button>
          </div>
        ))}
        <button type="button" className="small secondary" onClick={() => set('checks', [...d.checks, { check_type: 'diskspace', settings: '{"drive": "C:", "threshold_percent": 10}' }])}>
          Add check
        </button>

        <h3>Tasks</h3>
        {d.tasks.map((t, i) => (
          <div className="form-grid" key={i} role="group" aria-label={`Task ${i + 1}`}>
            <label>
              Task {i + 1} name
              <input value={t.name} onChange={(e) => set('tasks', d.tasks.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} />
            </label>
            <label>
              Task {i + 1} script
              <select value={t.script} onChange={(e) => set('tasks', d.tasks.map((x, j) => (j === i ? { ...x, script: e.target.value } : x)))}>
                <option value="">Choose…</option>
                {(scripts.data ?? []).map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Task {i + 1} schedule (cron, UTC)
              <input value={t.schedule} onChange={(e) => set('tasks', d.tasks.map((x, j) => (j === i ? { ...x, schedule: e.target.value } : x)))} />
            </label>
            <label>
              Task {i + 1} arguments
              <input value={t.args} onChange={(e) => set('tasks', d.tasks.map((x, j) => (j === i ? { ...x, args: e.target.value } : x)))} />
            </label>
            <button type="button" className="small secondary outline" onClick={() => set('tasks', d.tasks.filter((_, j) => j !== i))}>
              Remove task {i + 1}
            </button>
          </div>
        ))}
        <button type="button" className="small secondary" onClick={() => set('tasks', [...d.tasks, { name: '', script: '', schedule: '0 3 * * *', args: '' }])}>
          Add task
        </button>

        <h3>Maintenance windows</h3>
        {d.windows.map((w, i) => (
          <div className="form-grid" key={i} role="group" aria-label={`Window ${i + 1}`}>
            <label>
              Window {i + 1} start (5-field cron)
              <input value={w.schedule} onChange={(e) => set('windows', d.windows.map((x, j) => (j === i ? { ...x, schedule: e.target.value } : x)))} />
            </label>
            <label>
              Window {i + 1} minutes
              <input type="number" min={1} max={1440} value={w.duration_minutes} onChange={(e) => set('windows', d.windows.map((x, j) => (j === i ? { ...x, duration_minutes: e.target.value } : x)))} />
            </label>
            <label>
              Window {i + 1} time zone
              <input value={w.timezone} onChange={(e) => set('windows', d.windows.map((x, j) => (j === i ? { ...x, timezone: e.target.value } : x)))} />
            </label>
            <button type="button" className="small secondary outline" onClick={() => set('windows', d.windows.filter((_, j) => j !== i))}>
              Remove window {i + 1}
            </button>
          </div>
        ))}
        <button type="button" className="small secondary" onClick={() => set('windows', [...d.windows, { schedule: '0 22 * * 6', duration_minutes: '120', timezone: 'UTC' }])}>
          Add window
        </button>

        <div role="status" aria-live="polite" className="policy-preview">
          {preview.isPending ? (
            'Counting the agents it matches…'
          ) : preview.isError ? (
            <ErrorNote error={preview.error} />
          ) : (
            <>
              <strong>Matches {preview.data.agents} agents</strong>: {preview.data.total_added} added, {preview.data.total_removed} removed
              {preview.data.added.length > 0 && <span className="muted"> (added: {preview.data.added.map((a) => a.hostname).join(', ')})</span>}
              {preview.data.removed.length > 0 && <span className="muted"> (removed: {preview.data.removed.map((a) => a.hostname).join(', ')})</span>}
            </>
          )}
        </div>
        <FormErrors error={save.error} labels={{ name: 'Policy name', priority: 'Priority', 'targets.clients': 'Clients' }} />
        <div className="actions">
          <button type="submit" aria-busy={save.isPending} disabled={save.isPending}>
            {policy ? 'Save policy' : 'Create policy'}
          </button>
          <button type="button" className="secondary outline" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </Section>
  );
}
