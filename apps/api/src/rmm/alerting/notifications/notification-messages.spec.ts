import { createHmac } from 'node:crypto';
import { emailMessage, httpBody, Notification, summaryLine } from './notification-messages';
import { signature } from './notification-senders';

const n: Notification = {
  id: '6f1c2a9e-0000-4000-8000-000000000001',
  event: 'task.run',
  severity: 'error',
  at: new Date('2026-11-26T10:00:00Z'),
  payload: {
    event: 'task.run',
    agent: { id: '42', hostname: 'web-<01>', plat: 'linux', client: { id: 3, name: 'Acme & Co' }, site: { id: 4, name: 'HQ' } },
    run: { id: 9, task: 2, task_name: 'Nightly backup', status: 'timed_out', retcode: null, error: 'it timed out after 60 s', started_at: '2026-11-26T09:59:00.000Z', finished_at: '2026-11-26T10:00:00.000Z' },
  },
};

describe('notification messages', () => {
  it('N2: says what a notifications.suppressed summary counts, and what alert.flapping means', () => {
    const suppressed: Notification = {
      ...n,
      event: 'notifications.suppressed',
      severity: 'warning',
      payload: {
        event: 'notifications.suppressed',
        agent: n.payload.agent,
        suppressed: { count: 1234, events: ['alert.created', 'alert.resolved'], limit: 60, from: '2026-11-26T10:00:00.000Z', until: '2026-11-26T11:00:00.000Z' },
      },
    };
    expect(summaryLine(suppressed)).toBe(
      '[WARNING] Notifications suppressed on web-<01> (Acme & Co): 1234 more notification(s) (alert.created, alert.resolved) not sent between 2026-11-26T10:00:00.000Z and 2026-11-26T11:00:00.000Z, past 60 per hour for this agent',
    );
    expect(JSON.parse(httpBody('webhook', suppressed, 'https://rmm.example.com')).suppressed).toEqual(suppressed.payload.suppressed);
    expect(summaryLine({ ...n, event: 'alert.flapping', payload: { event: 'alert.flapping', agent: n.payload.agent } })).toBe(
      '[ERROR] Alert flapping (no more notifications of it until stable for 30 minutes) on web-<01> (Acme & Co)',
    );
  });

  it('reads as one line: severity, what, agent, client, detail', () => {
    expect(summaryLine(n)).toBe('[ERROR] Task run failed on web-<01> (Acme & Co): task "Nightly backup" timed_out (it timed out after 60 s)');
  });

  it('gives a webhook {id, event, ts, agent (with its console link), run}', () => {
    expect(JSON.parse(httpBody('webhook', n, 'https://rmm.example.com'))).toEqual({
      id: n.id,
      event: 'task.run',
      ts: '2026-11-26T10:00:00.000Z',
      severity: 'error',
      agent: { ...n.payload.agent, url: 'https://rmm.example.com/app/agents/42' },
      run: n.payload.run,
    });
  });

  it('escapes what Slack and HTML would read as markup', () => {
    const slack = JSON.parse(httpBody('slack', n, 'https://rmm.example.com'));
    expect(slack.blocks[0].text.text).toContain('web-&lt;01&gt; (Acme &amp; Co)');
    const mail = emailMessage(n, 'https://rmm.example.com');
    expect(mail.html).toContain('web-&lt;01&gt;');
    expect(mail.html).not.toContain('web-<01>');
    expect(mail.text).toContain('Open the agent: https://rmm.example.com/app/agents/42');
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });

  it('signs "<t>.<body>" with HMAC-SHA256', () => {
    // (the value of a fixed input, so that a change of format shows here)
    expect(signature('secret', '{"a":1}', 1_700_000_000)).toBe('t=1700000000,v1=' + createHmac('sha256', 'secret').update('1700000000.{"a":1}').digest('hex'));
  });
});
