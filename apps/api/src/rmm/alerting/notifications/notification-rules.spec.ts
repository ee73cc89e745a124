import { DomainError } from '../../../common/errors/domain-error';
import { NOTIFICATION_EVENT_SEVERITY } from '@app/entities';
import { EVENT_SEVERITY } from './notification-outbox';
import { checkEventsCanFire, checkHeaders, checkRecipients, checkUrl } from './notification-rules';

const refused = (f: () => unknown): string => {
  try {
    f();
  } catch (err) {
    return (err as DomainError).fields.map((x) => `${x.field}: ${x.message}`).join('; ');
  }
  throw new Error('not refused');
};

describe('notification channel rules', () => {
  it('takes http(s) URLs and refuses other schemes and private literals', () => {
    expect(checkUrl(' https://hooks.example.com/x?y=1 ', false)).toBe('https://hooks.example.com/x?y=1');
    expect(refused(() => checkUrl('ftp://example.com/', false))).toMatch(/^url: must be an http/);
    expect(refused(() => checkUrl('javascript:alert(1)', false))).toMatch(/^url:/);
    for (const u of ['http://127.0.0.1:8080/', 'http://[::1]/', 'http://169.254.169.254/latest', 'http://localhost/', 'http://10.0.0.5/']) {
      expect(refused(() => checkUrl(u, false))).toMatch(/RMM_NOTIFY_ALLOW_PRIVATE/);
    }
    expect(checkUrl('http://127.0.0.1:8080/', true)).toBe('http://127.0.0.1:8080/');
  });

  it('takes e-mail addresses and refuses anything that could become a header', () => {
    expect(checkRecipients(['a@example.com', 'a@example.com', 'b.c+d@mail.example.org'])).toEqual(['a@example.com', 'b.c+d@mail.example.org']);
    expect(refused(() => checkRecipients(['no-at-sign']))).toMatch(/^to: not an e-mail/);
    expect(refused(() => checkRecipients(['a@example.com\r\nBcc: x@evil.com']))).toMatch(/^to:/);
  });

  it('takes bounded string headers with safe names', () => {
    expect(checkHeaders({ Authorization: 'Bearer abc', 'X-Team': 'ops' })).toEqual({ Authorization: 'Bearer abc', 'X-Team': 'ops' });
    for (const h of [{ Host: 'x' }, { 'content-length': '1' }, { 'X-RMM-Delivery': 'x' }, { 'Bad Name': 'x' }, { A: 'x\r\nB: y' }, { A: 5 }, { A: 'x'.repeat(3000) }]) {
      expect(refused(() => checkHeaders(h as Record<string, unknown>))).toMatch(/^headers:/);
    }
    expect(refused(() => checkHeaders(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`H${i}`, 'v']))))).toMatch(/at most 20/);
  });

  it('refuses events a channel can never be sent, naming each with its severity; agent.online with agent.offline is its recovery', () => {
    expect(refused(() => checkEventsCanFire(['alert.created', 'agent.online', 'enrollment.completed'], 'warning'))).toBe(
      'events: agent.online (info), enrollment.completed (info) can never be sent at min_severity warning: lower min_severity or leave them out (agent.online is also sent, whatever min_severity, after each agent.offline of the channel it recovers)',
    );
    expect(refused(() => checkEventsCanFire(['agent.offline', 'task.run'], 'error'))).toBe('events: agent.offline (warning) can never be sent at min_severity error: lower min_severity or leave it out');
    expect(() => checkEventsCanFire(['agent.offline', 'agent.online'], 'warning')).not.toThrow();
    expect(() => checkEventsCanFire(['alert.created', 'task.run'], 'error')).not.toThrow();
  });

  it("keeps the shared table (the console's form, the check above) equal to the severities the outbox writes", () => {
    for (const [event, severity] of Object.entries(EVENT_SEVERITY)) expect([event, NOTIFICATION_EVENT_SEVERITY[event as keyof typeof NOTIFICATION_EVENT_SEVERITY]]).toEqual([event, severity]);
    const fixed = Object.entries(NOTIFICATION_EVENT_SEVERITY).filter(([, s]) => s !== null).map(([e]) => e);
    expect(fixed.sort()).toEqual(Object.keys(EVENT_SEVERITY).sort());
  });
});
