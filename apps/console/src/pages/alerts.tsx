import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { api, errorText, ok, okPage } from '../api/http';
import { useSession } from '../api/session';
import type { Alert } from '../api/schemas';
import { ErrorNote, Loading, StatusBadge } from '../components/bits';
import { when } from '../components/format';
import { useFleet } from '../fleet/fleet-context';

type Show = 'open' | 'acknowledged' | 'resolved';
const RESOLVED_SHOWN = 200;

/** Alerts: open (not yet acknowledged), acknowledged (still open) or resolved (the newest 200); live. */
export function AlertsPage() {
  const qc = useQueryClient();
  const fleet = useFleet(false);
  const [show, setShow] = useState<Show>('open');
  const active = useQuery({ queryKey: ['alerts', 'active'], queryFn: () => ok(api.GET('/api/v3/alerts')), enabled: show !== 'resolved' });
  const resolved = useQuery({
    queryKey: ['alerts', 'resolved'],
    enabled: show === 'resolved',
    queryFn: async () => {
      // Lists are ordered by id: the newest are at the end.
      const page = (limit: number, offset: number) => okPage(api.GET('/api/v3/alerts', { params: { query: { resolved: true, limit, offset } } }));
      const { total } = await page(1, 0);
      const { rows } = await page(RESOLVED_SHOWN, Math.max(0, total - RESOLVED_SHOWN));
      return { rows: rows.reverse(), total };
    },
  });
  useEffect(() => fleet.onEvent((e) => e.event.startsWith('alert.') && void qc.invalidateQueries({ queryKey: ['alerts'] })), [fleet, qc]);

  const list =
    show === 'resolved'
      ? (resolved.data?.rows ?? [])
      : (active.data ?? []).filter((a) => (show === 'acknowledged' ? a.acknowledged : !a.acknowledged)).slice().reverse();
  const query = show === 'resolved' ? resolved : active;
  const counts = active.data ? { open: active.data.filter((a) => !a.acknowledged).length, acknowledged: active.data.filter((a) => a.acknowledged).length } : undefined;

  return (
    <>
      <div className="page-head">
        <h1>Alerts</h1>
      </div>
      <fieldset className="segmented" role="radiogroup" aria-label="Show">
        {(['open', 'acknowledged', 'resolved'] as Show[]).map((s) => (
          <label key={s}>
            <input type="radio" name="show" value={s} checked={show === s} onChange={() => setShow(s)} />
            {s === 'open' ? 'Open' : s === 'acknowledged' ? 'Acknowledged' : 'Resolved'}
            {s !== 'resolved' && counts ? ` (${counts[s]})` : ''}
          </label>
        ))}
      </fieldset>
      {query.isPending ? (
        <Loading what="alerts" />
      ) : query.isError ? (
        <ErrorNote error={query.error} />
      ) : (
        <>
          {show === 'resolved' && resolved.data && resolved.data.total > RESOLVED_SHOWN && (
            <p className="muted">
              The newest {RESOLVED_SHOWN} of {resolved.data.total} resolved alerts.
            </p>
          )}
          <AlertsTable alerts={list} emptyText={show === 'open' ? 'No open alerts.' : show === 'acknowledged' ? 'No acknowledged alerts.' : 'No resolved alerts.'} />
        </>
      )}
    </>
  );
}

/** Alerts in a table, with Acknowledge and Resolve for an operator who may change alerts. */
export function AlertsTable({ alerts, hideAgent = false, emptyText }: { alerts: Alert[]; hideAgent?: boolean; emptyText: string }) {
  const { can } = useSession();
  const fleet = useFleet(!hideAgent);
  const qc = useQueryClient();
  const act = useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'acknowledge' | 'resolve' }) =>
      ok(api.POST(action === 'acknowledge' ? '/api/v3/alerts/{id}/acknowledge' : '/api/v3/alerts/{id}/resolve', { params: { path: { id } } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['alerts'] });
      void qc.invalidateQueries({ queryKey: ['agent-alerts'] });
    },
  });
  if (alerts.length === 0) return <p className="muted">{emptyText}</p>;
  const writable = can('alerts:write');
  return (
    <>
      {act.isError && <p role="alert" className="error">{errorText(act.error)}</p>}
      <div className="table-scroll" tabIndex={0}>
        <table className="striped">
          <thead>
            <tr>
              <th scope="col">Severity</th>
              {!hideAgent && <th scope="col">Agent</th>}
              <th scope="col">Alert</th>
              <th scope="col">Raised</th>
              <th scope="col">State</th>
              {writable && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {alerts.map((a) => (
              <tr key={a.id} data-alert-id={a.id}>
                <td>
                  <StatusBadge status={a.severity} />
                </td>
                {!hideAgent && (
                  <td>
                    <Link href={`/agents/${a.agent}`}>{fleet.get(a.agent)?.hostname ?? `Agent ${a.agent}`}</Link>
                  </td>
                )}
                <td>
                  {a.message}
                  <br />
                  <small className="muted">
                    {a.alert_type.replace(/_/g, ' ')}
                    {a.flapping && <span title="It opened and resolved too often: kept open, not notified again until stable for 30 minutes"> · flapping</span>}
                  </small>
                </td>
                <td>{when(a.created_at)}</td>
                <td>
                  {a.resolved
                    ? `Resolved ${when(a.resolved_at)}${a.resolved_by ? ` by ${a.resolved_by}` : ''}`
                    : a.acknowledged
                      ? `Acknowledged${a.acknowledged_by ? ` by ${a.acknowledged_by}` : ''}`
                      : 'Open'}
                </td>
                {writable && (
                  <td className="actions">
                    {!a.resolved && !a.acknowledged && (
                      <button type="button" className="small" disabled={act.isPending} onClick={() => act.mutate({ id: a.id, action: 'acknowledge' })}>
                        Acknowledge
                      </button>
                    )}
                    {!a.resolved && (
                      <button type="button" className="small secondary" disabled={act.isPending} onClick={() => act.mutate({ id: a.id, action: 'resolve' })}>
                        Resolve
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
