import type { AlertSeverity, NotificationType } from '@app/entities';
import type { NotificationPayload } from './notification-payload';

/** A notification as stored in the outbox (payload) plus its delivery id, time and severity. */
export interface Notification {
  id: string;
  event: string;
  severity: AlertSeverity;
  /** When it happened (the outbox row's creation, in the transaction of its cause). */
  at: Date;
  payload: NotificationPayload;
}

/** A request body to send (JSON text) or an e-mail's parts. */
export interface WebhookMessage {
  body: string;
}
export interface EmailMessage {
  subject: string;
  text: string;
  html: string;
}

/** The console's page of an agent (apps/console: /app/agents/:id). */
export const agentLink = (publicUrl: string, agentId: string): string => `${publicUrl}/app/agents/${encodeURIComponent(agentId)}`;

const WHAT: Record<string, string> = {
  'alert.created': 'Alert',
  'alert.resolved': 'Alert resolved',
  'alert.acknowledged': 'Alert acknowledged',
  'alert.flapping': 'Alert flapping (no more notifications of it until stable for 30 minutes)',
  'notifications.suppressed': 'Notifications suppressed',
  'agent.offline': 'Agent offline',
  'agent.overdue': 'Agent overdue',
  'agent.online': 'Agent back online',
  'task.run': 'Task run failed',
  'enrollment.completed': 'Device enrolled',
  'notification.test': 'Test notification',
};

/** The one readable line every human-facing format starts from: severity, what, agent, client, and the detail. */
export function summaryLine(n: Notification): string {
  const agent = n.payload.agent;
  const where = agent ? ` on ${agent.hostname}${agent.client ? ` (${agent.client.name})` : ''}` : '';
  const detail = n.payload.alert
    ? `: ${n.payload.alert.message}`
    : n.payload.run
      ? `: task "${n.payload.run.task_name}" ${n.payload.run.status}${n.payload.run.error ? ` (${n.payload.run.error})` : ''}`
      : n.payload.suppressed
        ? `: ${n.payload.suppressed.count} more notification(s) (${n.payload.suppressed.events.join(', ')}) not sent between ${n.payload.suppressed.from} and ${n.payload.suppressed.until}, past ${n.payload.suppressed.limit} per hour for this agent`
        : '';
  return `[${n.severity.toUpperCase()}] ${WHAT[n.event] ?? n.event}${where}${detail}`;
}

/** The webhook's JSON (docs/notifications.md, "Payload"): {id, event, ts, agent, alert?, run?}. */
export function webhookBody(n: Notification, publicUrl: string): Record<string, unknown> {
  const { event: _event, agent, ...rest } = n.payload;
  return {
    id: n.id,
    event: n.event,
    ts: n.at.toISOString(),
    severity: n.severity,
    agent: agent ? { ...agent, url: agentLink(publicUrl, agent.id) } : null,
    ...rest,
  };
}

/** Slack's incoming-webhook format: `text` (notifications, fallbacks) and one section block with the link. */
export function slackBody(n: Notification, publicUrl: string): Record<string, unknown> {
  const line = summaryLine(n);
  const agent = n.payload.agent;
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const link = agent ? ` <${agentLink(publicUrl, agent.id)}|Open ${esc(agent.hostname)}>` : '';
  return { text: line, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `${esc(line)}${link}` } }] };
}

const TEAMS_COLOR: Record<AlertSeverity, string> = { info: '2E86C1', warning: 'F39C12', error: 'C0392B' };

/** Microsoft Teams' incoming-webhook MessageCard: title, the line, and an "Open agent" button. */
export function teamsBody(n: Notification, publicUrl: string): Record<string, unknown> {
  const line = summaryLine(n);
  const agent = n.payload.agent;
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: line.slice(0, 200),
    themeColor: TEAMS_COLOR[n.severity] ?? TEAMS_COLOR.info,
    title: `${WHAT[n.event] ?? n.event} (${n.severity})`,
    text: line,
    ...(agent ? { potentialAction: [{ '@type': 'OpenUri', name: `Open ${agent.hostname}`, targets: [{ os: 'default', uri: agentLink(publicUrl, agent.id) }] }] } : {}),
  };
}

/** The body a channel of this type is sent. */
export function httpBody(type: Exclude<NotificationType, 'email'>, n: Notification, publicUrl: string): string {
  const body = type === 'slack' ? slackBody(n, publicUrl) : type === 'teams' ? teamsBody(n, publicUrl) : webhookBody(n, publicUrl);
  return JSON.stringify(body);
}

const html = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** An e-mail: the line as subject, and a plain-text and an HTML part with the details and the link. */
export function emailMessage(n: Notification, publicUrl: string): EmailMessage {
  const line = summaryLine(n);
  const agent = n.payload.agent;
  const rows: Array<[string, string]> = [
    ['Event', n.event],
    ['Severity', n.severity],
    ['Time', n.at.toISOString()],
  ];
  if (agent) {
    rows.push(['Agent', agent.hostname]);
    if (agent.client) rows.push(['Client', agent.client.name]);
    if (agent.site) rows.push(['Site', agent.site.name]);
  }
  if (n.payload.alert) rows.push(['Alert', `${n.payload.alert.alert_type}: ${n.payload.alert.message}`]);
  if (n.payload.run) rows.push(['Task', `${n.payload.run.task_name}: ${n.payload.run.status}${n.payload.run.error ? ` (${n.payload.run.error})` : ''}`]);
  const link = agent ? agentLink(publicUrl, agent.id) : null;
  const text = [line, '', ...rows.map(([k, v]) => `${k}: ${v}`), ...(link ? ['', `Open the agent: ${link}`] : []), '', `Delivery ${n.id}`].join('\n');
  const body =
    `<p><strong>${html(line)}</strong></p><table>${rows.map(([k, v]) => `<tr><th align="left">${html(k)}</th><td>${html(v)}</td></tr>`).join('')}</table>` +
    (link ? `<p><a href="${html(link)}">Open the agent in the console</a></p>` : '') +
    `<p style="color:#888">Delivery ${html(n.id)}</p>`;
  return { subject: line.replace(/[\r\n]+/g, ' ').slice(0, 250), text, html: `<!doctype html><html><body>${body}</body></html>` };
}
