import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../../common/clock';
import { loggedPath } from '../../../common/logging/logged-path';
import { PlatformCallers } from '../../../platform/auth/platform-caller';
import { hashApiKey } from '../../common/api-key-secret';
import type { AuthedRequest, SignInAttempt } from '../../common/principal';
import { auditedSurface, isAuditedMethod, requestedPath, routeAction } from './audit-entry';
import { AuditService, PendingAuditEntry } from './audit.service';

type Actor = Pick<PendingAuditEntry, 'actorKind' | 'actorId' | 'actorName' | 'keyHash'>;

const ANONYMOUS: Actor = { actorKind: 'anonymous', actorId: null, actorName: null };

/**
 * Who a console sign-in names: the operator once it succeeded; before that the account tried, as the name of an
 * anonymous caller (nobody has proved who they are, but a review needs to see which account was tried).
 */
function signInActor(attempt: SignInAttempt): Actor {
  if (attempt.operator) return { actorKind: 'operator', actorId: String(attempt.operator.id), actorName: attempt.operator.email };
  return { ...ANONYMOUS, actorName: attempt.email };
}

/**
 * The one Fastify `onResponse` hook of the audit log (registered here, so server.ts needs no line): after the
 * answer is sent, a POST/PUT/PATCH/DELETE that matched a route under /api/v3 or /auth/v1/admin is queued
 * with its final status, whatever it was: refusals (401, 403, 429) and body errors answered before the key
 * guard ran (400, 415) included. Requests that matched no route (the router's 404) are not recorded.
 */
@Injectable()
export class AuditHttpRecorder implements OnModuleInit {
  private readonly logger = new Logger('audit');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly audit: AuditService,
    private readonly callers: PlatformCallers,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // The CLI's application context has no HTTP server.
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    // Callback-style: a GET (never audited, but for a sign-in: the OpenID provider's callback) costs two comparisons, no promise.
    fastify.addHook('onResponse', (request, reply, done) => {
      if (!isAuditedMethod(request.method) && !(request as AuthedRequest).signIn) return done();
      this.record(request, reply).then(
        () => done(),
        (err: unknown) => {
          this.logger.error(`audit of ${request.method} ${loggedPath(request.url)} failed: ${(err as Error).message}`);
          done();
        },
      );
    });
  }

  private async record(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const method = request.method;
    const signIn = (request as AuthedRequest).signIn;
    if (!isAuditedMethod(method) && !signIn) return;
    const pattern = request.routeOptions.url;
    const surface = auditedSurface(pattern);
    if (!surface) return;
    const at = this.clock.now();
    const actor = signIn ? signInActor(signIn) : surface === 'rmm' ? this.keyActor(request as AuthedRequest) : await this.platformActor(request);
    this.audit.enqueue({
      at,
      ...actor,
      method,
      action: routeAction(method, pattern!),
      target: requestedPath(request.url),
      clientAddress: request.ip ?? null,
      status: reply.statusCode,
      // A sign-in's outcome says how it was tried as well (the status alone reads the same for every method).
      outcome: signIn ? `${reply.statusCode} ${signIn.method}` : String(reply.statusCode),
      requestId: String(request.id),
      changes: this.audit.takeChanges(String(request.id)),
    });
  }

  /** The key the guard verified; for a refused key, only its hash, resolved when the row is written. */
  private keyActor(request: AuthedRequest): Actor {
    const p = request.principal;
    if (p) return { actorKind: p.kind, actorId: String(p.id), actorName: p.name };
    const header = request.headers['x-api-key'];
    const secret = Array.isArray(header) ? header[0] : header;
    return secret ? { ...ANONYMOUS, keyHash: hashApiKey(secret) } : ANONYMOUS;
  }

  /** Who called the admin API, by the data platform's own rules (the bearer decides, else the apikey). */
  private async platformActor(request: FastifyRequest): Promise<Actor> {
    try {
      const caller = await this.callers.resolve(request.headers, request.query as Record<string, unknown>);
      switch (caller.role) {
        case 'service_role':
          return { actorKind: 'service_role', actorId: null, actorName: 'service_role' };
        case 'authenticated':
          return {
            actorKind: 'user',
            actorId: typeof caller.claims.sub === 'string' ? caller.claims.sub : null,
            actorName: typeof caller.claims.email === 'string' ? caller.claims.email : null,
          };
        case 'anon':
          return { ...ANONYMOUS, actorName: 'anon' };
      }
    } catch {
      return ANONYMOUS; // no key, an unknown key, or a bad token
    }
  }
}
