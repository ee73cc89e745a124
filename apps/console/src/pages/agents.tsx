import { memo, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Link } from 'wouter';
import { useClients } from '../api/queries';
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
  const [sort, setSort] = useState<{ key: SortKey; desc: boolean }>({ key: 'hostname', desc: false });
  const deferredSearch = useDeferredValue(search);
  const all = fleet.list();

  const rows = useMemo(
    () => filterAndSort(all, fleet, { search: deferredSearch, client, site, status }, sort),
    // fleet.list() is a new array whenever anything changed, so `all` stands for the store's version
    [all, fleet, deferredSearch, client, site, status, sort],
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
      </form>
      {fleet.error && !fleet.loaded && <ErrorNote error={new Error(fleet.error)} />}
      {!fleet.loaded && !fleet.error ? <p aria-busy="true">Loading agents…</p> : <AgentTable rows={rows} fleet={fleet} sort={sort} onSort={setSort} />}
    </>
  );
}

interface Filters {
  search: string;
  client: string;
  site: string;
  status: string;
}

function filterAndSort(all: Agent[], fleet: FleetStore, f: Filters, sort: { key: SortKey; desc: boolean }): Agent[] {
  const needle = f.search.trim().toLowerCase();
  const rows = all.filter(
    (a) =>
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

function AgentTable({ rows, fleet, sort, onSort }: { rows: Agent[]; fleet: FleetStore; sort: { key: SortKey; desc: boolean }; onSort: (s: { key: SortKey; desc: boolean }) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 12 });
  const items = virtual.getVirtualItems();
  const top = items.length ? items[0].start : 0;
  const bottom = items.length ? virtual.getTotalSize() - items[items.length - 1].end : 0;
  const now = useNow();

  return (
    <div className="table-scroll agents-scroll" ref={scroller} tabIndex={0} role="region" aria-label="Agents list">
      <table className="agents striped" aria-rowcount={rows.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" className={`col-${c.key}`} aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : undefined}>
                <button type="button" className="sort" onClick={() => onSort({ key: c.key, desc: sort.key === c.key ? !sort.desc : false })}>
                  {c.label}
                  <span aria-hidden="true">{sort.key === c.key ? (sort.desc ? ' ▼' : ' ▲') : ''}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {top > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={COLUMNS.length} style={{ height: top }} />
            </tr>
          )}
          {items.map((v) => {
            const a = rows[v.index];
            return <AgentRow key={a.agent_id} agent={a} index={v.index} alerts={fleet.openAlertCount(a.agent_id)} now={now} />;
          })}
          {bottom > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={COLUMNS.length} style={{ height: bottom }} />
            </tr>
          )}
        </tbody>
      </table>
      {rows.length === 0 && <p className="empty">No agent matches.</p>}
    </div>
  );
}

const AgentRow = memo(function AgentRow({ agent: a, index, alerts, now }: { agent: Agent; index: number; alerts: number; now: number }) {
  return (
    <tr aria-rowindex={index + 2} data-agent-id={a.agent_id}>
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
    </tr>
  );
});
