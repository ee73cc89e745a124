import { memo, useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link } from 'wouter';
import { api, errorText, ok } from '../api/http';
import { useClients } from '../api/queries';
import { useSession } from '../api/session';
import type { Agent } from '../api/schemas';
import { ErrorNote, NEVER_CONNECTED, StatusBadge } from '../components/bits';
import { ago, osOf, useNow } from '../components/format';
import { useFleet } from '../fleet/fleet-context';
import type { FleetStore } from '../fleet/fleet-store';
import { liveNote } from '../components/live-note';

type SortKey = 'hostname' | 'client' | 'os' | 'status' | 'last_seen' | 'alerts';
const COLUMNS: Array<{ key: SortKey; label: string }> = [
  { key: 'hostname', label: 'Hostname' },
  { key: 'client', label: 'Client / site' },
  { key: 'os', label: 'OS' },
  { key: 'status', label: 'Status' },
  { key: 'last_seen', label: 'Last seen' },
  { key: 'alerts', label: 'Open alerts' },
];
const ROW_HEIGHT = 41;

/** Every agent the operator may see, live: search, filters and sorting run in the page over the whole list. */
export function AgentsPage() {
  const fleet = useFleet();
  const clients = useClients();
  const [search, setSearch] = useState('');
  const [client, setClient] = useState('');
  const [site, setSite] = useState('');
  const [status, setStatus] = useState('');
  const [tag, setTag] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const { can } = useSession();
  const canTag = can('agents:write');
  // One function for every row (rows are memoised): adds or takes out one agent.
  const toggle = useCallback(
    (id: string, on: boolean) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'hostname', desc: false });
  const deferredSearch = useDeferredValue(search);
  const deferredTag = useDeferredValue(tag);
  const all = fleet.list();

  const rows = useMemo(
    () => filterAndSort(all, fleet, { search: deferredSearch, client, site, status, tag: deferredTag }, sort),
    // fleet.list() is a new array whenever anything changed, so `all` stands for the store's version
    [all, fleet, deferredSearch, client, site, status, deferredTag, sort],
  );
  const sites = clients.data?.find((c) => String(c.id) === client)?.sites ?? [];

  return (
    <>
      <div className="page-head">
        <h1>Agents</h1>
        <p className="muted" aria-live="polite">
          {fleet.loaded ? `${rows.length} of ${all.length} agents` : ''}
          {fleet.loaded ? liveNote(fleet.liveState) : ''}
        </p>
      </div>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input type="search" placeholder="Hostname, client, site, OS, user" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <label>
          Client
          <select
            value={client}
            onChange={(e) => {
              setClient(e.target.value);
              setSite('');
            }}
          >
            <option value="">All clients</option>
            {clients.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Site
          <select value={site} onChange={(e) => setSite(e.target.value)} disabled={!client}>
            <option value="">All sites</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any status</option>
            <option value="online">online</option>
            <option value="offline">offline</option>
            <option value="overdue">overdue</option>
          </select>
        </label>
        <label>
          Tag
          <input type="search" placeholder="finance, paris (all of them)" value={tag} onChange={(e) => setTag(e.target.value)} />
        </label>
      </form>
      {canTag && <BulkTags selected={selected} onClear={() => setSelected(new Set())} />}
      {fleet.error && !fleet.loaded && <ErrorNote error={new Error(fleet.error)} />}
      {!fleet.loaded && !fleet.error ? <p aria-busy="true">Loading agents…</p> : (
        <AgentTable rows={rows} fleet={fleet} sort={sort} onSort={setSort} selection={canTag ? { selected, onChange: setSelected, onToggle: toggle } : undefined} />
      )}
    </>
  );
}

interface Filters {
  search: string;
  client: string;
  site: string;
  status: string;
  /** Comma-separated tags: agents carrying every one of them. */
  tag: string;
}

/** The tags of the filter as the server stores them (lowercase, trimmed). */
const tagsOf = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);

/** Add tag / Remove tag on the selected agents (POST /api/v3/agents/tags/); the rows change through their agent.updated events. */
function BulkTags({ selected, onClear }: { selected: ReadonlySet<string>; onClear: () => void }) {
  const [tag, setTag] = useState('');
  const edit = useMutation({
    mutationFn: (body: { add?: string[]; remove?: string[] }) => ok(api.POST('/api/v3/agents/tags', { body: { agents: [...selected], ...body } })),
  });
  const [done, setDone] = useState('');
  const run = (kind: 'add' | 'remove') => {
    const value = tag.trim();
    setDone('');
    edit.mutate(kind === 'add' ? { add: [value] } : { remove: [value] }, {
      onSuccess: (r) => setDone(`${kind === 'add' ? 'Added' : 'Removed'} tag "${value.toLowerCase()}": ${r.updated} agent${r.updated === 1 ? '' : 's'} changed.`),
    });
  };
  const disabled = selected.size === 0 || !tag.trim() || edit.isPending;
  return (
    <form className="bulk-bar" aria-label="Tag the selected agents" onSubmit={(e) => e.preventDefault()}>
      <label>
        Tag for the selected agents
        <input value={tag} maxLength={64} onChange={(e) => setTag(e.target.value)} placeholder="finance" />
      </label>
      <button type="button" disabled={disabled} onClick={() => run('add')}>
        Add tag
      </button>
      <button type="button" className="secondary" disabled={disabled} onClick={() => run('remove')}>
        Remove tag
      </button>
      <button type="button" className="secondary outline" disabled={selected.size === 0} onClick={onClear}>
        Clear selection
      </button>
      <span className="muted" aria-live="polite">
        {selected.size} selected
      </span>
      {done && (
        <p role="status" className="ok">
          {done}
        </p>
      )}
      {edit.isError && (
        <p role="alert" className="error">
          {errorText(edit.error)}
        </p>
      )}
    </form>
  );
}

function filterAndSort(all: Agent[], fleet: FleetStore, f: Filters, sort: { key: SortKey; desc: boolean }): Agent[] {
  const needle = f.search.trim().toLowerCase();
  const tags = tagsOf(f.tag);
  const rows = all.filter(
    (a) =>
      tags.every((t) => a.tags.includes(t)) &&
      (!f.client || String(a.client?.id) === f.client) &&
      (!f.site || String(a.site?.id) === f.site) &&
      (!f.status || a.status === f.status) &&
      (!needle ||
        a.hostname.toLowerCase().includes(needle) ||
        (a.client?.name.toLowerCase().includes(needle) ?? false) ||
        (a.site?.name.toLowerCase().includes(needle) ?? false) ||
        osOf(a).toLowerCase().includes(needle) ||
        (a.logged_in_username?.toLowerCase().includes(needle) ?? false)),
  );
  const key = sortKey(sort.key, fleet);
  const keyed = rows.map((a) => ({ a, k: key(a) }));
  const dir = sort.desc ? -1 : 1;
  keyed.sort((x, y) => (x.k < y.k ? -dir : x.k > y.k ? dir : Number(x.a.agent_id) - Number(y.a.agent_id)));
  return keyed.map((x) => x.a);
}

function sortKey(key: SortKey, fleet: FleetStore): (a: Agent) => string | number {
  switch (key) {
    case 'hostname':
      return (a) => a.hostname.toLowerCase();
    case 'client':
      return (a) => `${a.client?.name ?? ''}\u0000${a.site?.name ?? ''}`.toLowerCase();
    case 'os':
      return (a) => osOf(a).toLowerCase();
    case 'status':
      return (a) => a.status;
    case 'last_seen':
      return (a) => (a.last_seen ? Date.parse(a.last_seen) : 0);
    case 'alerts':
      return (a) => fleet.openAlertCount(a.agent_id);
  }
}

const noToggle = (): void => undefined;

interface Selection {
  selected: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
  onToggle: (id: string, on: boolean) => void;
}

function AgentTable({
  rows,
  fleet,
  sort,
  onSort,
  selection,
}: {
  rows: Agent[];
  fleet: FleetStore;
  sort: { key: SortKey; desc: boolean };
  onSort: (s: { key: SortKey; desc: boolean }) => void;
  selection?: Selection;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtual.getVirtualItems();
  const top = items.length ? items[0].start : 0;
  const bottom = items.length ? virtual.getTotalSize() - items[items.length - 1].end : 0;
  const now = useNow();
  const columns = COLUMNS.length + 1 + (selection ? 1 : 0);
  const allShown = selection !== undefined && rows.length > 0 && rows.every((a) => selection.selected.has(a.agent_id));
  const toggle = selection?.onToggle ?? noToggle;

  return (
    <div className="table-scroll agents-scroll" ref={scroller} tabIndex={0} role="region" aria-label="Agents list">
      <table className="agents striped" aria-rowcount={rows.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {selection && (
              <th scope="col" className="col-select">
                <input
                  type="checkbox"
                  aria-label="Select every agent shown"
                  checked={allShown}
                  onChange={(e) => selection.onChange(e.target.checked ? new Set([...selection.selected, ...rows.map((a) => a.agent_id)]) : new Set())}
                />
              </th>
            )}
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" className={`col-${c.key}`} aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : undefined}>
                <button type="button" className="sort" onClick={() => onSort({ key: c.key, desc: sort.key === c.key ? !sort.desc : false })}>
                  {c.label}
                  <span aria-hidden="true">{sort.key === c.key ? (sort.desc ? ' ▼' : ' ▲') : ''}</span>
                </button>
              </th>
            ))}
            <th scope="col" className="col-tags">
              Tags
            </th>
          </tr>
        </thead>
        <tbody>
          {top > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={columns} style={{ height: top }} />
            </tr>
          )}
          {items.map((v) => {
            const a = rows[v.index];
            return (
              <AgentRow
                key={a.agent_id}
                agent={a}
                index={v.index}
                alerts={fleet.openAlertCount(a.agent_id)}
                now={now}
                selected={selection ? selection.selected.has(a.agent_id) : undefined}
                onSelect={toggle}
              />
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={columns} style={{ height: bottom }} />
            </tr>
          )}
        </tbody>
      </table>
      {rows.length === 0 && <p className="empty">No agent matches.</p>}
    </div>
  );
}

const AgentRow = memo(function AgentRow({
  agent: a,
  index,
  alerts,
  now,
  selected,
  onSelect,
}: {
  agent: Agent;
  index: number;
  alerts: number;
  now: number;
  /** undefined: the operator cannot tag, no checkbox. */
  selected: boolean | undefined;
  onSelect: (id: string, on: boolean) => void;
}) {
  return (
    <tr aria-rowindex={index + 2} data-agent-id={a.agent_id}>
      {selected !== undefined && (
        <td className="col-select">
          <input type="checkbox" aria-label={`Select ${a.hostname}`} checked={selected} onChange={(e) => onSelect(a.agent_id, e.target.checked)} />
        </td>
      )}
      <td>
        <Link href={`/agents/${a.agent_id}`}>{a.hostname}</Link>
      </td>
      <td className="col-client">
        {a.client?.name ?? '—'}
        {a.site ? ` / ${a.site.name}` : ''}
      </td>
      <td className="col-os">{osOf(a)}</td>
      <td>
        <StatusBadge status={a.status} />
      </td>
      {/* An online agent is connected now; its last heartbeat's time is not pushed to the list. */}
      <td>{a.status === 'online' ? 'now' : a.never_connected ? NEVER_CONNECTED : ago(a.last_seen, now)}</td>
      <td className={alerts > 0 ? 'num alerting' : 'num'}>{alerts}</td>
      <td className="col-tags">
        {a.maintenance && <span className="badge badge-maintenance">maintenance</span>} {a.tags.join(', ')}
      </td>
    </tr>
  );
});
