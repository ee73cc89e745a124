import { Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { ApiKeyScope } from '@app/entities';
import { Clock } from '../../common/clock';
import { CommonErrorCode, DomainError } from '../../common/errors/domain-error';
import { consoleOrigins, originAllowed, originRefusal } from '../../common/http/origin';
import type { UpgradeRefusal } from '../../common/ws/gateway-server';
import { RuntimeConfig } from '../../config/runtime-config';
import { Callers } from './callers';
import { hasScope, Principal } from './principal';

/** A refused Origin is logged at most this often (per origin). */
const ORIGIN_WARNING_EVERY_MS = 60_000;

/** Who an upgrade comes from, once authenticated (401), from an allowed page (403) and with the scope (403). */
export type CallerDecision = { refuse: UpgradeRefusal } | { principal: Principal };

/**
 * The admission of the management WebSockets (the events WebSockets, the terminal): who an upgrade request comes
 * from, by the same rules as /api/v3, with the Origin check a cookie needs. One place, so that every WebSocket a
 * browser can reach refuses a foreign page the same way.
 */
@Injectable()
export class UpgradeCallers {
  private readonly logger = new Logger('ws-upgrade');
  /** When each refused Origin was last logged (warnRefusedOrigin). */
  private readonly originWarnings = new Map<string, number>();

  constructor(
    private readonly resolver: Callers,
    private readonly config: RuntimeConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * In this order: a key (X-API-KEY, else ?api_key=) or the console's session cookie (401); for the cookie, a page
   * of one of the console's origins (consoleOrigins: PUBLIC_URL's, or the loopback names without it, and
   * RMM_CORS_ORIGINS; else 403 'Origin not allowed', logged at warn: a browser sends the cookie with an upgrade from
   * any page, so without this any site its user visits could use the WebSocket as them); then `scope` (403).
   * `what` names the WebSocket in the log line.
   */
  async authenticate(req: IncomingMessage, scope: ApiKeyScope, what: string): Promise<CallerDecision> {
    let caller;
    try {
      caller = await this.resolver.resolve(req.headers, queryKeyOf(req));
    } catch (err) {
      if (err instanceof DomainError && err.code === CommonErrorCode.Unauthorized) return { refuse: { status: 401, detail: err.message } };
      throw err;
    }
    if (caller.via === 'cookie') {
      const allowed = consoleOrigins(this.config);
      if (!originAllowed(req.headers.origin, allowed)) {
        this.warnRefusedOrigin(what, req.headers.origin, allowed);
        return { refuse: { status: 403, detail: 'Origin not allowed' } };
      }
    }
    if (!hasScope(caller.principal, scope)) return { refuse: { status: 403, detail: 'permission denied' } };
    return { principal: caller.principal };
  }

  /**
   * A refused Origin, at warn with the setting that would allow it (a console opened at another address than the
   * server knows itself by otherwise fails silently): once a minute per origin, as a console retries every few
   * seconds and any page may try.
   */
  private warnRefusedOrigin(what: string, origin: string | string[] | undefined, allowed: readonly string[]): void {
    const key = typeof origin === 'string' ? origin.slice(0, 200) : '';
    const now = this.clock.now().getTime();
    const last = this.originWarnings.get(key);
    if (last !== undefined && now - last < ORIGIN_WARNING_EVERY_MS) return;
    if (this.originWarnings.size >= 1_000) this.originWarnings.clear();
    this.originWarnings.set(key, now);
    this.logger.warn(`${what} WebSocket upgrade refused (403 Origin not allowed): ${originRefusal(origin, this.config, allowed)}`);
  }
}

/** The `api_key` query parameter of an upgrade request (a browser cannot set headers on a WebSocket). */
export function queryKeyOf(req: IncomingMessage): string | undefined {
  const q = (req.url ?? '').indexOf('?');
  if (q < 0) return undefined;
  try {
    return new URLSearchParams((req.url ?? '').slice(q + 1)).get('api_key') || undefined;
  } catch {
    return undefined;
  }
}
