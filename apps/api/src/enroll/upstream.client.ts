import { Injectable } from '@nestjs/common';
import { RuntimeConfig } from '../config/runtime-config';

/** What an upstream call came to: an answer (any status), or none at all. */
export type UpstreamResult =
  | { kind: 'answer'; status: number; text: string; json: unknown }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; reason: string };

/**
 * The function's only way out: HTTP to the data platform (DATA_URL) and the backend (RMM_API_URL),
 * each call bounded by ENROLL_UPSTREAM_TIMEOUT_MS so that no request of the function hangs.
 */
@Injectable()
export class UpstreamClient {
  constructor(private readonly config: RuntimeConfig) {}

  /** The data platform's base URL: DATA_URL, else this server. */
  get dataUrl(): string {
    return this.config.dataUrl ?? this.self();
  }

  /** The backend's base URL: RMM_API_URL, else this server. */
  get rmmApiUrl(): string {
    return this.config.rmmApiUrl ?? this.self();
  }

  async call(url: string, init: { method: string; headers: Record<string, string>; body?: unknown }): Promise<UpstreamResult> {
    try {
      const res = await fetch(url, {
        method: init.method,
        headers: init.body === undefined ? init.headers : { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(this.config.enrollUpstreamTimeoutMs),
        redirect: 'follow',
      });
      const text = await res.text();
      let json: unknown = undefined;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        /* not JSON: callers look at `text` */
      }
      return { kind: 'answer', status: res.status, text, json };
    } catch (err) {
      const name = (err as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') return { kind: 'timeout' };
      const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
      return { kind: 'unreachable', reason: cause?.code ?? cause?.message ?? String((err as Error)?.message ?? err) };
    }
  }

  private self(): string {
    if (!this.config.internalUrl) throw new Error('the server is not listening yet');
    return this.config.internalUrl;
  }
}
