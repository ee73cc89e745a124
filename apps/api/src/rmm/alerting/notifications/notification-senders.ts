import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { createTransport, type Transporter } from 'nodemailer';
import { RuntimeConfig } from '../../../config/runtime-config';
import { AddressRefused, resolveChecked } from './address-guard';
import type { EmailMessage } from './notification-messages';

/** A webhook that has not answered within this long has failed (this attempt). */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this much of an error answer is read (and none of it kept): a receiver cannot make us buffer more. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What one attempt came to: the receiver's status (null: none), Retry-After, and why it failed. */
export interface AttemptOutcome {
  status: number | null;
  retryAfter?: string | string[];
  error: string | null;
  /** Not worth retrying (a refused address, no SMTP configured). */
  final?: boolean;
}

/** X-RMM-Signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the channel's secret. */
export function signature(secret: string, body: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

/**
 * Sends notifications: HTTP POSTs for webhook, Slack and Teams channels (one keep-alive agent per scheme, each
 * request connected to the address resolveChecked approved, no redirect followed) and e-mail through SMTP_URL
 * (one pooled nodemailer transport, made on first use). Never throws: every failure is an AttemptOutcome.
 */
@Injectable()
export class NotificationSenders implements OnApplicationShutdown {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private mailer?: Transporter;

  constructor(private readonly config: RuntimeConfig) {
    const maxSockets = Math.max(4, config.notifyConcurrency);
    this.agents = { http: new http.Agent({ keepAlive: true, maxSockets }), https: new https.Agent({ keepAlive: true, maxSockets }) };
  }

  onApplicationShutdown(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
    this.mailer?.close();
  }

  /** POSTs `body` (JSON) to `url` with these headers; the answer's status, or why there was none. */
  async post(url: string, body: string, headers: Record<string, string>): Promise<AttemptOutcome> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return { status: null, error: 'the channel URL is not a valid URL', final: true };
    }
    let checked: { address: string; family: 4 | 6 };
    try {
      checked = await resolveChecked(target.hostname.replace(/^\[|\]$/g, ''), this.config.notifyAllowPrivate);
    } catch (err) {
      const refused = err instanceof AddressRefused;
      return { status: null, error: refused ? err.message : `${target.hostname} could not be resolved: ${(err as Error).message}`, final: refused };
    }
    // Connect to the address that was checked, whatever a second resolution would say (DNS rebinding).
    const lookup: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [checked]);
      else callback(null, checked.address, checked.family);
    };
    const secure = target.protocol === 'https:';
    return new Promise<AttemptOutcome>((resolve) => {
      let settled = false;
      const done = (o: AttemptOutcome): void => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          resolve(o);
        }
      };
      const req = (secure ? https : http).request(
        {
          protocol: target.protocol,
          hostname: target.hostname.replace(/^\[|\]$/g, ''),
          port: target.port || (secure ? 443 : 80),
          path: `${target.pathname}${target.search}`,
          method: 'POST',
          headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
          agent: secure ? this.agents.https : this.agents.http,
          lookup,
          ...(target.username ? { auth: `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}` } : {}),
        },
        (res) => {
          const status = res.statusCode ?? 0;
          let read = 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_ANSWER_BYTES) res.destroy();
          });
          const finish = (): void =>
            done({
              status,
              retryAfter: res.headers['retry-after'],
              error: status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? `the receiver answered ${status} (redirects are not followed)` : `the receiver answered ${status}`,
            });
          res.on('end', finish);
          res.on('close', finish);
          res.on('error', finish);
        },
      );
      const timer = setTimeout(() => {
        req.destroy(new Error(`timed out: the receiver did not answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`));
      }, WEBHOOK_TIMEOUT_MS);
      req.on('error', (err) => done({ status: null, error: err.message || String(err) }));
      req.end(body);
    });
  }

  /** Sends an e-mail through SMTP_URL; its SMTP reply code on refusal. Errors never carry SMTP_URL's password. */
  async mail(to: string[], message: EmailMessage): Promise<AttemptOutcome> {
    if (!this.config.smtpUrl) return { status: null, error: 'SMTP_URL is not configured: e-mail cannot be sent', final: true };
    // Bounded like a webhook: an SMTP server that hangs must not hold an attempt past its lease (another instance
    // would send it again meanwhile).
    this.mailer ??= createTransport({ url: this.config.smtpUrl, connectionTimeout: WEBHOOK_TIMEOUT_MS, greetingTimeout: WEBHOOK_TIMEOUT_MS, socketTimeout: WEBHOOK_TIMEOUT_MS });
    try {
      await this.mailer.sendMail({ from: this.config.smtpFrom, to, subject: message.subject, text: message.text, html: message.html });
      return { status: 250, error: null };
    } catch (err) {
      const e = err as Error & { responseCode?: number };
      return { status: typeof e.responseCode === 'number' ? e.responseCode : null, error: redact(e.message, this.config.smtpUrl) };
    }
  }
}

/** An error message without the SMTP password, should a library ever quote the URL. */
function redact(message: string, smtpUrl: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(smtpUrl).password);
  } catch {
    /* config validated it */
  }
  return password ? message.split(password).join('***') : message;
}
