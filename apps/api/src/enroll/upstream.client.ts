import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import * as http from 'node:http';
import * as https from 'node:https';
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
  constructor(
    private readonly config: RuntimeConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** The data platform's base URL: DATA_URL, else this server. */
  get dataUrl(): string {
    return this.config.dataUrl ?? this.self();
  }

  /** The backend's base URL: RMM_API_URL, else this server. */
  get rmmApiUrl(): string {
    return this.config.rmmApiUrl ?? this.self();
  }

  /**
   * One call, over a kept-alive connection (node:http/https; up to 5 redirects followed, 303 as a GET), bounded by
   * ENROLL_UPSTREAM_TIMEOUT_MS as a whole and by MAX_ANSWER_BYTES. Not `fetch`: with the upstreams on this same
   * server (the default), `fetch`'s web streams, abort signals and per-request objects were ~18 % of the
   * server's CPU under an enrollment load of five calls per enrollment (docs/performance.md, 2026-11-26).
   */
  call(url: string, init: { method: string; headers: Record<string, string>; body?: unknown }): Promise<UpstreamResult> {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const own = this.ownPath(url);
    if (own !== null) return this.inject(own, init.method, init.headers, body);
    return request(url, init.method, init.headers, body, Date.now() + this.config.enrollUpstreamTimeoutMs, MAX_REDIRECTS);
  }

  /** The path and query of `url` when it is this server (DATA_URL / RMM_API_URL unset, the default), else null. */
  private ownPath(url: string): string | null {
    const self = this.config.internalUrl;
    if (!self || !url.startsWith(`${self}/`)) return null;
    return url.slice(self.length);
  }

  /**
   * A call to this same server, through its own routes and hooks in process (Fastify's `inject`: authentication,
   * limits, validation, logging, as over HTTP) without a socket on either side: over loopback each of the
   * function's four calls cost a connection's writes and an HTTP parse at both ends (docs/performance.md).
   */
  private inject(path: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<UpstreamResult> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const sent: Record<string, string> = body === undefined ? { ...headers } : { 'content-type': 'application/json', ...headers };
    return new Promise<UpstreamResult>((resolve) => {
      const timer = setTimeout(() => resolve({ kind: 'timeout' }), this.config.enrollUpstreamTimeoutMs);
      fastify
        .inject({ method: method as 'GET', url: path, headers: sent, payload: body, remoteAddress: '127.0.0.1' })
        .then(
          (res) => resolve(answer(res.statusCode, res.payload)),
          (err: Error) => resolve({ kind: 'unreachable', reason: err.message }),
        )
        .finally(() => clearTimeout(timer));
    });
  }

  private self(): string {
    if (!this.config.internalUrl) throw new Error('the server is not listening yet');
    return this.config.internalUrl;
  }
}

/** An answer: its status, its text, and its JSON when it is JSON (callers look at `text` otherwise). */
function answer(status: number, text: string): UpstreamResult {
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { kind: 'answer', status, text, json };
}

const MAX_REDIRECTS = 5;
/** The most an upstream's answer may be (the function's own answers are a few hundred bytes). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const AGENTS = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

function request(url: string, method: string, headers: Record<string, string>, body: string | undefined, deadline: number, redirects: number): Promise<UpstreamResult> {
  return new Promise<UpstreamResult>((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ kind: 'unreachable', reason: 'not a URL' });
    }
    const protocol = target.protocol === 'https:' ? 'https:' : target.protocol === 'http:' ? 'http:' : null;
    if (!protocol) return resolve({ kind: 'unreachable', reason: `unsupported protocol ${target.protocol}` });
    const wait = deadline - Date.now();
    if (wait <= 0) return resolve({ kind: 'timeout' });
    let settled = false;
    const finish = (result: UpstreamResult | Promise<UpstreamResult>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const sent: Record<string, string | number> = { ...headers };
    if (body !== undefined) {
      sent['content-type'] = 'application/json';
      sent['content-length'] = Buffer.byteLength(body);
    }
    const req = (protocol === 'https:' ? https : http).request(target, { method, headers: sent, agent: AGENTS[protocol] }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location && redirects > 0) {
        res.resume();
        let next: string;
        try {
          next = new URL(location, target).toString();
        } catch {
          return finish({ kind: 'unreachable', reason: 'a redirect to a location that is not a URL' });
        }
        const asGet = status === 303 || ((status === 301 || status === 302) && method === 'POST');
        return finish(request(next, asGet ? 'GET' : method, headers, asGet ? undefined : body, deadline, redirects - 1));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          req.destroy();
          return finish({ kind: 'unreachable', reason: `answer over ${MAX_ANSWER_BYTES} bytes` });
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish(answer(status, Buffer.concat(chunks).toString('utf8'))));
      res.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'unreachable', reason: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish({ kind: 'unreachable', reason: err.code ?? err.message }));
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      req.destroy();
    }, wait);
    req.end(body);
  });
}
