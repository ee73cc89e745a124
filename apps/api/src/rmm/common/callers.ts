import type { IncomingHttpHeaders } from 'node:http';
import type { Principal } from './principal';

/** How a caller proved who it is: a key may call from anywhere; a cookie only from the console's own origin. */
export interface ResolvedCaller {
  principal: Principal;
  via: 'api_key' | 'cookie';
}

/**
 * Who calls the management backend (the guard of every /api/v3 route, both event WebSockets): a port of the
 * ground, implemented by access/ (PrincipalResolver: API keys and console sessions) and provided by AccessModule,
 * so that the guard sits below every feature without importing one.
 */
export abstract class Callers {
  /** The caller of these headers (and a WebSocket's ?api_key=), or Unauthorized ('Invalid token'). */
  abstract resolve(headers: IncomingHttpHeaders, queryKey?: string): Promise<ResolvedCaller>;
}

/** Where the latest use of each API key is noted (api_keys.last_used_at, written behind; access/ApiKeyUsage). */
export abstract class KeyUses {
  abstract touch(keyId: number, at: Date): void;
}
