import { loadConfig } from './app-config';

describe('notification settings', () => {
  it('defaults: no SMTP, rmm@<PUBLIC_URL host>, private addresses refused, 30 s back-off for 24 h, 32 at once', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://rmm.example.com' })).toMatchObject({
      smtpUrl: undefined,
      smtpFrom: 'rmm@rmm.example.com',
      notifyAllowPrivate: false,
      notifyRetryBaseSeconds: 30,
      notifyRetryForSeconds: 86_400,
      notifyConcurrency: 32,
      notifyChannelConcurrency: 4,
      notifyCircuitMinutes: 15,
    });
  });

  it('reads SMTP_URL (smtp or smtps) and SMTP_FROM, and never echoes the password in its error', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465', SMTP_FROM: 'RMM <alerts@example.com>' })).toMatchObject({ smtpUrl: 'smtps://u:p@mail.example.com:465', smtpFrom: 'RMM <alerts@example.com>' });
    for (const bad of ['http://u:hunter2@mail.example.com', 'not a url hunter2', 'smtp://']) {
      let message = '';
      try {
        loadConfig({ SMTP_URL: bad });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(/^SMTP_URL must be a URL like smtp:\/\//);
      expect(message).not.toContain('hunter2');
    }
    for (const bad of ['nobody', 'a@b\r\nBcc: x@y', 'RMM <>']) expect(() => loadConfig({ SMTP_FROM: bad })).toThrow(/^SMTP_FROM must be an e-mail address/);
  });

  it('N2 point 3: reads RMM_NOTIFY_CHANNEL_CONCURRENCY as a whole number and RMM_NOTIFY_CIRCUIT_MINUTES with a fraction, within bounds', () => {
    expect(loadConfig({ RMM_NOTIFY_CHANNEL_CONCURRENCY: '2', RMM_NOTIFY_CIRCUIT_MINUTES: '0.1' })).toMatchObject({ notifyChannelConcurrency: 2, notifyCircuitMinutes: 0.1 });
    expect(loadConfig({ RMM_NOTIFY_CIRCUIT_MINUTES: '60' }).notifyCircuitMinutes).toBe(60);
    expect(() => loadConfig({ RMM_NOTIFY_CHANNEL_CONCURRENCY: '0' })).toThrow(/^RMM_NOTIFY_CHANNEL_CONCURRENCY must be a whole number from 1 to 1000/);
    for (const bad of ['0', '0.01', '-1', '1e3', 'soon', '20000']) expect(() => loadConfig({ RMM_NOTIFY_CIRCUIT_MINUTES: bad })).toThrow(/^RMM_NOTIFY_CIRCUIT_MINUTES must be a number from 0.05 to 10080/);
  });

  it('reads RMM_NOTIFY_ALLOW_PRIVATE as a boolean and the numbers within their bounds', () => {
    expect(loadConfig({ RMM_NOTIFY_ALLOW_PRIVATE: 'true' }).notifyAllowPrivate).toBe(true);
    expect(loadConfig({ RMM_NOTIFY_ALLOW_PRIVATE: '0' }).notifyAllowPrivate).toBe(false);
    expect(() => loadConfig({ RMM_NOTIFY_ALLOW_PRIVATE: 'maybe' })).toThrow(/^RMM_NOTIFY_ALLOW_PRIVATE must be true or false/);
    expect(() => loadConfig({ RMM_NOTIFY_RETRY_BASE_SECONDS: '0' })).toThrow(/^RMM_NOTIFY_RETRY_BASE_SECONDS must be a whole number from 1 to 3600/);
    expect(() => loadConfig({ RMM_NOTIFY_CONCURRENCY: '5000' })).toThrow(/^RMM_NOTIFY_CONCURRENCY/);
    expect(loadConfig({ RMM_NOTIFY_RETRY_BASE_SECONDS: '1', RMM_NOTIFY_RETRY_FOR_SECONDS: '60' })).toMatchObject({ notifyRetryBaseSeconds: 1, notifyRetryForSeconds: 60 });
  });

  it('N2: RMM_ALERT_FLAP_LIMIT 5, RMM_NOTIFY_OFFLINE_GRACE_SECONDS 60 (0 allowed), RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR 60 by default, each within its bounds', () => {
    expect(loadConfig({})).toMatchObject({ alertFlapLimit: 5, notifyOfflineGraceSeconds: 60, notifyMaxPerAgentPerHour: 60, checkResultSpacing: true });
    expect(loadConfig({ RMM_ALERT_FLAP_LIMIT: '1', RMM_NOTIFY_OFFLINE_GRACE_SECONDS: '0', RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR: '1000000' })).toMatchObject({
      alertFlapLimit: 1,
      notifyOfflineGraceSeconds: 0,
      notifyMaxPerAgentPerHour: 1_000_000,
    });
    expect(() => loadConfig({ RMM_ALERT_FLAP_LIMIT: '0' })).toThrow(/^RMM_ALERT_FLAP_LIMIT must be a whole number from 1 to 1000/);
    expect(() => loadConfig({ RMM_NOTIFY_OFFLINE_GRACE_SECONDS: '-1' })).toThrow(/^RMM_NOTIFY_OFFLINE_GRACE_SECONDS/);
    expect(() => loadConfig({ RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR: '0' })).toThrow(/^RMM_NOTIFY_MAX_PER_AGENT_PER_HOUR/);
  });
});
