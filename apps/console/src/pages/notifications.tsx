import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/http';
import { useClients } from '../api/queries';
import { useSession } from '../api/session';
import {
  CHANNEL_EVENTS,
  CHANNEL_TYPES,
  eventsNeverSent,
  NOTIFICATION_EVENT_SEVERITY,
  SEVERITIES,
  type AlertSeverity,
  type Client,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationTestResult,
  type NotificationType,
} from '../api/schemas';
import { ErrorNote, Loading, Section, StatusBadge } from '../components/bits';
import { ClientPicker } from '../components/client-picker';
import { when } from '../components/format';

const CHANNELS_KEY = ['notifications'] as const;
const deliveriesKey = (id: number) => ['notification-deliveries', id] as const;

const TYPE_LABELS: Record<NotificationType, string> = { webhook: 'Webhook', email: 'E-mail', slack: 'Slack', teams: 'Microsoft Teams' };

/**
 * Where a channel sends: the URL's host (the rest of a URL may be a credential, as a Slack or Teams incoming-webhook
 * path is, so the list does not spread it across the screen), or the e-mail recipients.
 */
export function destinationOf(c: Pick<NotificationChannel, 'type' | 'url' | 'to'>): string {
  if (c.type === 'email') return c.to.join(', ');
  if (!c.url) return '—';
  try {
    return new URL(c.url).host;
  } catch {
    return c.url;
  }
}

/**
 * The severity an event is sent with, as the form shows it beside the event (the API refuses a channel whose events
 * can never reach its minimum: NOTIFICATION_EVENT_SEVERITY, eventsNeverSent).
 */
function severityNote(event: NotificationEvent, chosen: readonly NotificationEvent[]): string {
  if (event === 'task.run') return 'error: failed runs only';
  if (event === 'agent.online' && chosen.includes('agent.offline')) return 'info; also sent after each offline it recovers';
  return NOTIFICATION_EVENT_SEVERITY[event] ?? "the alert's severity";
}

/** A channel's clients by name; [] is every client (as the API has it, unlike API keys' null). */
function channelClients(ids: number[], clients: Client[] | undefined): string {
  if (ids.length === 0) return 'All clients';
  return ids.map((id) => clients?.find((c) => c.id === id)?.name ?? `client ${id}`).join(', ');
}

/**
 * Notification channels (docs/notifications.md): the list with each channel's state, a form to create one, and,
 * for operators with notifications:write, Send test, Enable/Disable and Delete; each channel's recent deliveries
 * open below its row. A viewer sees the same list, without the controls that change anything.
 */
export default function NotificationsPage() {
  const { can } = useSession();
  const canWrite = can('notifications:write');
  // Refreshed now and then: a channel's circuit opens and closes by itself (docs/notifications.md, "Circuit breaker").
  const channels = useQuery({ queryKey: CHANNELS_KEY, queryFn: () => ok(api.GET('/api/v3/notifications')), refetchInterval: 30_000 });
  const clients = useClients();
  return (
    <>
      <div className="page-head">
        <h1>Notifications</h1>
      </div>
      <p className="muted">
        A channel sends alerts and agent events to a webhook, Slack, Microsoft Teams or e-mail addresses. Deliveries are retried for a day; a receiver that
        answers 410 disables its channel.
      </p>
      {canWrite && <CreateChannel clients={clients.data ?? []} />}
      <Section id="channels" title="Channels">
        {channels.isPending ? (
          <Loading what="channels" />
        ) : channels.isError ? (
          <ErrorNote error={channels.error} />
        ) : channels.data.length === 0 ? (
          <p className="muted">No channel yet.</p>
        ) : (
          <ChannelList channels={channels.data} clients={clients.data} canWrite={canWrite} />
        )}
      </Section>
    </>
  );
}

/** Recipients as typed: one per line, or separated by commas. */
function splitRecipients(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A new channel's events until the operator ticks others; the form returns to them after each Create. */
const DEFAULT_EVENTS: NotificationEvent[] = ['alert.created', 'alert.resolved'];

function CreateChannel({ clients }: { clients: Client[] }) {
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [type, setType] = useState<NotificationType>('webhook');
  const [url, setUrl] = useState('');
  const [to, setTo] = useState('');
  const [secret, setSecret] = useState('');
  const [minSeverity, setMinSeverity] = useState<AlertSeverity>('warning');
  const [events, setEvents] = useState<NotificationEvent[]>(DEFAULT_EVENTS);
  const [limitTo, setLimitTo] = useState<number[]>([]);
  // What the API would refuse (400 naming them): said here, before Create.
  const never = eventsNeverSent(events, minSeverity);
  const create = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v3/notifications', {
          body: {
            name: name.trim(),
            type,
            ...(type === 'email' ? { to: splitRecipients(to) } : { url: url.trim() }),
            ...(type !== 'email' && secret !== '' ? { secret } : {}),
            min_severity: minSeverity,
            events,
            ...(limitTo.length ? { clients: limitTo } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setName('');
      setUrl('');
      setTo('');
      setSecret('');
      setLimitTo([]);
      // A fresh form: the next channel does not inherit this one's events or minimum severity.
      setEvents(DEFAULT_EVENTS);
      setMinSeverity('warning');
      void qc.invalidateQueries({ queryKey: CHANNELS_KEY });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <Section id="new-channel" title="New channel">
      <form onSubmit={submit}>
        <div className="form-grid">
          <label>
            Channel name
            <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Type
            <select value={type} onChange={(e) => setType(e.target.value as NotificationType)}>
              {CHANNEL_TYPES.map((t) => (
                <option key={t} value={t}>
                  {TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Minimum severity
            <select value={minSeverity} onChange={(e) => setMinSeverity(e.target.value as AlertSeverity)}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          {type === 'email' ? (
            <label className="wide">
              Recipients (one per line, or separated by commas)
              <textarea required rows={2} value={to} onChange={(e) => setTo(e.target.value)} />
            </label>
          ) : (
            <>
              <label className="wide">
                {type === 'webhook' ? 'URL' : `${TYPE_LABELS[type]} incoming-webhook URL`}
                <input type="url" required maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://" />
              </label>
              <label className="wide">
                Secret (optional: signs every body; it is never shown again)
                <input type="password" autoComplete="new-password" maxLength={512} value={secret} onChange={(e) => setSecret(e.target.value)} />
              </label>
            </>
          )}
        </div>
        <fieldset className="checks" aria-describedby={never.length > 0 ? 'never-sent' : undefined}>
          <legend>Events (each with the severity it is sent with)</legend>
          {CHANNEL_EVENTS.map((ev) => (
            <label key={ev}>
              <input type="checkbox" checked={events.includes(ev)} onChange={(e) => setEvents(e.target.checked ? [...events, ev] : events.filter((x) => x !== ev))} />
              {ev} <span className="muted">({severityNote(ev, events)})</span>
            </label>
          ))}
        </fieldset>
        {never.length > 0 && (
          <p id="never-sent" className="error" role="alert">
            Never sent at minimum severity {minSeverity}: {never.map((ev) => `${ev} (${NOTIFICATION_EVENT_SEVERITY[ev]})`).join(', ')}. Lower the minimum severity or untick{' '}
            {never.length === 1 ? 'it' : 'them'}.
          </p>
        )}
        {clients.length > 0 && <ClientPicker clients={clients} value={limitTo} onChange={setLimitTo} legend="Only agents of these clients" />}
        <button type="submit" aria-busy={create.isPending} disabled={create.isPending || events.length === 0 || never.length > 0}>
          Create channel
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.data && (
        <p className="created" role="status">
          Channel <strong>{create.data.name}</strong> created.
        </p>
      )}
    </Section>
  );
}

function ChannelList({ channels, clients, canWrite }: { channels: NotificationChannel[]; clients: Client[] | undefined; canWrite: boolean }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState<number | null>(null);
  const [tested, setTested] = useState<{ channel: NotificationChannel; result: NotificationTestResult } | null>(null);
  const refresh = (id?: number) => {
    void qc.invalidateQueries({ queryKey: CHANNELS_KEY });
    if (id !== undefined) void qc.invalidateQueries({ queryKey: deliveriesKey(id) });
  };
  const toggle = useMutation({
    mutationFn: (c: NotificationChannel) => ok(api.PATCH('/api/v3/notifications/{id}', { params: { path: { id: c.id } }, body: { enabled: !c.enabled } })),
    onSuccess: (c) => refresh(c.id),
  });
  const remove = useMutation({
    mutationFn: (id: number) => ok(api.DELETE('/api/v3/notifications/{id}', { params: { path: { id } } })),
    onSuccess: () => refresh(),
  });
  const test = useMutation({
    mutationFn: (c: NotificationChannel) => ok(api.POST('/api/v3/notifications/{id}/test', { params: { path: { id: c.id } } })),
    onMutate: () => setTested(null),
    onSuccess: (result, c) => {
      setTested({ channel: c, result });
      refresh(c.id);
    },
  });
  return (
    <>
      <ErrorNote error={toggle.error ?? remove.error ?? test.error} />
      {tested && (
        <p role="status" className={tested.result.delivered ? 'test-result' : 'test-result error'}>
          Test of {tested.channel.name}:{' '}
          {tested.result.delivered
            ? `delivered${tested.result.status_code !== null ? ` (${tested.result.status_code})` : ''}`
            : `not delivered${tested.result.status_code !== null ? ` (${tested.result.status_code})` : ''}: ${tested.result.error ?? 'no reason given'}`}
        </p>
      )}
      <div className="table-scroll" tabIndex={0}>
        <table className="striped">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Destination</th>
              <th scope="col">Events</th>
              <th scope="col">Minimum severity</th>
              <th scope="col">Clients</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => (
              <ChannelRow
                key={c.id}
                c={c}
                clients={clients}
                open={open === c.id}
                toggleOpen={() => setOpen(open === c.id ? null : c.id)}
                actions={
                  canWrite
                    ? {
                        test: () => test.mutate(c),
                        testing: test.isPending && test.variables?.id === c.id,
                        toggle: () => toggle.mutate(c),
                        remove: () => {
                          if (window.confirm(`Delete the channel "${c.name}"? Its deliveries are deleted too, and pending ones are not sent.`)) remove.mutate(c.id);
                        },
                      }
                    : undefined
                }
              />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

interface RowActions {
  test: () => void;
  testing: boolean;
  toggle: () => void;
  remove: () => void;
}

function ChannelRow({ c, clients, open, toggleOpen, actions }: { c: NotificationChannel; clients: Client[] | undefined; open: boolean; toggleOpen: () => void; actions?: RowActions }) {
  return (
    <>
      <tr data-channel-id={c.id}>
        <td>
          {c.name}
          {c.has_secret && (
            <>
              <br />
              <small className="muted">signed</small>
            </>
          )}
        </td>
        <td>{TYPE_LABELS[c.type]}</td>
        <td className="destination">{destinationOf(c)}</td>
        <td>{c.events.join(', ')}</td>
        <td>{c.min_severity}</td>
        <td>{channelClients(c.clients, clients)}</td>
        <td>
          <StatusBadge status={c.enabled ? 'enabled' : 'disabled'} />
          {c.disabled_reason && (
            <>
              <br />
              <small className="muted">{c.disabled_reason}</small>
            </>
          )}
          {c.circuit_open && (
            <>
              <br />
              <StatusBadge status="circuit_open" />
              <br />
              <small className="muted" data-circuit-reason>
                {c.circuit_reason}; one probe at a time until one succeeds
              </small>
            </>
          )}
        </td>
        <td className="actions">
          <button type="button" className="small secondary outline" aria-expanded={open} onClick={toggleOpen}>
            {open ? 'Hide deliveries' : 'Deliveries'}
            <span className="visually-hidden"> of {c.name}</span>
          </button>
          {actions && (
            <>
              <button type="button" className="small" onClick={actions.test} disabled={actions.testing} aria-busy={actions.testing}>
                Send test<span className="visually-hidden"> to {c.name}</span>
              </button>
              <button type="button" className="small secondary outline" onClick={actions.toggle}>
                {c.enabled ? 'Disable' : 'Enable'}
                <span className="visually-hidden"> {c.name}</span>
              </button>
              <button type="button" className="small contrast outline" onClick={actions.remove}>
                Delete<span className="visually-hidden"> {c.name}</span>
              </button>
            </>
          )}
        </td>
      </tr>
      {open && (
        <tr className="detail">
          <td colSpan={8}>
            <Deliveries channel={c} />
          </td>
        </tr>
      )}
    </>
  );
}

/** The channel's newest deliveries (tests included), read again every 5 s while shown: retries come due. */
function Deliveries({ channel }: { channel: NotificationChannel }) {
  const deliveries = useQuery({
    queryKey: deliveriesKey(channel.id),
    queryFn: () => ok(api.GET('/api/v3/notifications/{id}/deliveries', { params: { path: { id: channel.id }, query: { limit: 20 } } })),
    refetchInterval: 5_000,
  });
  if (deliveries.isPending) return <Loading what="deliveries" />;
  if (deliveries.isError) return <ErrorNote error={deliveries.error} />;
  if (deliveries.data.length === 0) return <p className="muted">Nothing sent to {channel.name} yet.</p>;
  return (
    <table className="deliveries" aria-label={`Deliveries of ${channel.name}`}>
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Attempts</th>
          <th scope="col">Last answer</th>
          <th scope="col">Next attempt</th>
        </tr>
      </thead>
      <tbody>
        {deliveries.data.map((d) => (
          <tr key={d.id}>
            <td>{when(d.created_at)}</td>
            <td>
              {d.event} <small className="muted">({d.severity})</small>
            </td>
            <td>
              <StatusBadge status={d.status} />
            </td>
            <td>{d.attempts}</td>
            <td>
              {d.last_status_code ?? '—'}
              {d.last_error ? ` · ${d.last_error}` : ''}
            </td>
            <td>{d.status === 'pending' ? when(d.next_attempt_at) : d.status === 'delivered' ? `delivered ${when(d.delivered_at)}` : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
