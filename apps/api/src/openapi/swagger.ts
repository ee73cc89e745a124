import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { API_KEY_SECURITY, DATA_KEY_SECURITY, DEPLOYMENT_TOKEN_SECURITY, SESSION_COOKIE_SECURITY, USER_JWT_SECURITY } from '../common/http/openapi-security';
import type { ErrorSurface } from '../common/errors/error-surfaces';
import { errorExamples, surfaceOf } from './openapi-examples';

/** The tags, in the order Swagger UI lists them, each with what an operator needs to know first. */
const TAGS: Array<{ name: string; description: string }> = [
  { name: 'enrollment function', description: 'POST /functions/v1/enroll-rmm and its status: a signed-in user (Authorize: user-jwt) gets a 24-hour agent deployment for their tenant. Errors: {error}.' },
  { name: 'data platform: auth (GoTrue-compatible)', description: 'Sign-in, sessions and users, as Supabase Auth (GoTrue) answers them. Every call needs the apikey (Authorize: data-key). Errors: GoTrue\'s body, or the gateway\'s {message} for a missing or unknown apikey.' },
  { name: 'data platform: REST (PostgREST-compatible)', description: 'The tables user_profiles and enrollment_log, as PostgREST answers them, under row-level security. Needs the apikey, a user token, or both (Authorize: data-key, user-jwt). Errors: PostgREST\'s {code, details, hint, message}.' },
  { name: 'agents', description: 'Enrolled machines, and running scripts on them. Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'deployments', description: 'One-time installer downloads for a site. Authorize: api-key (X-API-KEY), except the download itself. Errors: {detail}.' },
  { name: 'clients and sites', description: 'The tenants agents belong to. Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'scripts', description: 'Scripts to run on agents. Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'checks', description: "Monitoring checks on agents. Authorize: api-key (X-API-KEY). Errors: {detail}." },
  { name: 'tasks', description: 'Scheduled scripts. Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'alerts', description: 'Alerts raised by checks, tasks and overdue agents. Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'notifications', description: 'Notification channels (webhook, Slack, Teams, e-mail) and their deliveries: signed, retried from an outbox (docs/notifications.md). Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'api keys', description: 'Management API keys and their scopes (admin). Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'console sessions', description: "The console's sign-in (docs/console.md): POST login sets the HttpOnly cookie rmm_session, which every /api/v3 call accepts instead of X-API-KEY; a change made with the cookie needs the header X-Requested-With: rmm-console. Errors: {detail}." },
  { name: 'passkeys', description: "An operator's passkeys (WebAuthn, docs/sso.md): register, list, rename, remove with the session cookie; sign in with one alone (public); re-authenticate (step-up). RP id and origin from PUBLIC_URL. Errors: {detail}." },
  { name: 'operators', description: 'The console\'s people: role admin, technician or viewer, optionally limited to some clients, optional TOTP (admin). Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'policies', description: 'Automation policies: checks, tasks and maintenance windows for every agent their targets match, with priorities, exclusions and per-agent overrides (docs/policies.md). Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'custom fields', description: 'Named, typed values of agents, sites and clients, filled into scripts\' arguments (docs/custom-fields.md): definitions (admin writes). Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'terminal', description: 'Remote terminals on agents (docs/terminal.md): a session is opened here and used over the WebSocket /rmm/terminal/{session_id}/; every session is listed with its byte counts and end reason. Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'audit', description: 'Who changed what (admin). Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'system', description: 'The server about itself: its periodic jobs on every instance, their state and last runs (admin). Authorize: api-key (X-API-KEY). Errors: {detail}.' },
  { name: 'agent', description: "What the agent program calls (/agent/v1): registration with its deployment's uuid as the token. Errors: {detail}." },
  { name: 'health', description: 'Liveness and readiness, without credentials.' },
];

export function buildOpenApiDocument(app: INestApplication, surfaces: readonly ErrorSurface[]): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('RMM server')
    .setDescription(
      'Self-hosted RMM: the device enrollment function (/functions/v1), the Supabase-compatible data platform ' +
        '(/auth/v1, /rest/v1) and the management backend (/api/v3, X-API-KEY). ' +
        'Under "Authorize", paste a management API key (api-key) to try the /api/v3 calls, the data platform\'s ' +
        'DATA_ANON_KEY or DATA_SERVICE_ROLE_KEY (data-key) for /auth/v1 and /rest/v1, and a user\'s access_token ' +
        '(user-jwt, from POST /auth/v1/token) for the enrollment function. `npm run cli -- keys show` prints the keys. ' +
        'Live events: the WebSockets /rmm/{agent_id}/ (one agent) and /rmm/fleet/ (every agent the caller may see; ' +
        'X-API-KEY, ?api_key= or the console session cookie, scope agents:read) are described by the ' +
        `AsyncAPI document [${ASYNCAPI_PATH}](${ASYNCAPI_PATH}) (docs/events.md in the repository).`,
    )
    .setVersion('3')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // Relative: Try-it-out calls the server that serves this page, whatever its host and port.
    .addServer('/', 'This server')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'Management API key' }, API_KEY_SECURITY)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A data-platform user token' }, USER_JWT_SECURITY)
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'apikey',
        description: 'The data platform\'s DATA_ANON_KEY or DATA_SERVICE_ROLE_KEY (also taken as the apikey query parameter)',
      },
      DATA_KEY_SECURITY,
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: "A deployment's uuid (the installer's enrollment token)" }, DEPLOYMENT_TOKEN_SECURITY)
    .addCookieAuth('rmm_session', { type: 'apiKey', in: 'cookie', name: 'rmm_session', description: "An operator's console session (POST /api/v3/auth/login)" }, SESSION_COOKIE_SECURITY);
  for (const tag of TAGS) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    // Unique across controllers: "clients" + "list" → clientsList.
    operationIdFactory: (controllerKey: string, methodKey: string) => {
      const base = controllerKey.replace(/Controller$/, '');
      return `${base.charAt(0).toLowerCase()}${base.slice(1)}${methodKey.charAt(0).toUpperCase()}${methodKey.slice(1)}`;
    },
  });
  // A tag a controller uses that TAGS does not list yet is still declared (listed last).
  const declared = new Set((document.tags ??= []).map((t) => t.name));
  for (const { op } of operationsOf(document)) {
    for (const name of op.tags ?? []) {
      if (!declared.has(name)) document.tags.push({ name });
      declared.add(name);
    }
  }
  return addErrorExamples(addCommonAnswers(addSecurityAndDescriptions(addErrorSchemas(document))), surfaces);
}

type Parameter = { in: string; name: string; schema?: Record<string, unknown>; example?: unknown };
type MediaType = { schema?: unknown; example?: unknown; examples?: Record<string, { summary: string; value: unknown }> };
type Response = { description?: string; content?: Record<string, MediaType> };
type Operation = {
  summary?: string;
  tags?: string[];
  description?: string;
  parameters?: Parameter[];
  requestBody?: unknown;
  responses: Record<string, Response>;
  security?: Array<Record<string, string[]>>;
  'x-required-scope'?: string;
  'x-also-requires-scope'?: string;
  'x-also-requires-scope-when'?: string;
};
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

function operationsOf(document: OpenAPIObject): Array<{ path: string; method: (typeof METHODS)[number]; op: Operation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = (item as Record<string, Operation | undefined>)[method];
      return op ? [{ path, method, op }] : [];
    }),
  );
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The error bodies no DTO describes: PostgREST's, and the gateway's bare {message} (refused apikey). */
function addErrorSchemas(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components ??= {}).schemas ?? (document.components.schemas = {});
  schemas.PostgrestErrorDto = {
    type: 'object',
    description: "PostgREST's error body",
    required: ['code', 'message'],
    properties: {
      code: { type: 'string', description: 'PGRST… or a PostgreSQL SQLSTATE' },
      message: { type: 'string' },
      details: { type: 'string', nullable: true },
      hint: { type: 'string', nullable: true },
    },
  };
  schemas.GatewayErrorDto = {
    type: 'object',
    description: "The API gateway's answer to a missing or unknown apikey (Supabase's)",
    required: ['message'],
    properties: { message: { type: 'string' } },
  };
  return document;
}

/** The error body of the surface that answers for a path (and status: a refused apikey is the gateway's). */
function errorSchemaOf(surfaces: readonly ErrorSurface[], path: string, status: number): Record<string, unknown> | undefined {
  switch (surfaceOf(surfaces, path)) {
    case 'rmm':
      return ref('RmmErrorDto');
    case 'function':
      return ref('EnrollErrorDto');
    case 'auth':
      return status === 401 ? { anyOf: [ref('GatewayErrorDto'), ref('GoTrueErrorDto')] } : ref('GoTrueErrorDto');
    case 'rest':
      return status === 401 ? { anyOf: [ref('GatewayErrorDto'), ref('PostgrestErrorDto')] } : ref('PostgrestErrorDto');
    default:
      return undefined;
  }
}

/**
 * What each operation needs, declared (public ones with `security: []`), and a description for each that
 * has none: how to call it from this page and what its errors look like.
 */
function addSecurityAndDescriptions(document: OpenAPIObject): OpenAPIObject {
  for (const { path, op } of operationsOf(document)) {
    let how: string;
    if (path === '/healthz' || path === '/readyz') {
      op.security = [];
      how = 'No credentials. Used by load balancers and orchestrators.';
    } else if (path.startsWith('/deploy')) {
      op.security = [];
      how = "No credentials: the deployment's uuid, handed out by POST /api/v3/agents/deployments or the enrollment function, is the credential. Errors: {detail}.";
    } else if (path === '/agent/v1/rmm-agent.js' || path === '/agent/v1/download/{target}') {
      op.security = [];
      how = "No credentials: the agent's code is not secret (the installers and updating agents fetch it). Errors: {detail}.";
    } else if (path === '/agent/v1/ping') {
      op.security = [];
      how = "Needs the agent's credentials (X-Agent-Id and Authorization: Bearer <agent secret>), which no Authorize button holds. Errors: {detail}.";
    } else if (path === '/agent/v1/register') {
      op.security = [{ [DEPLOYMENT_TOKEN_SECURITY]: [] }];
      how = "Needs the deployment's uuid as the bearer token (Authorize: deployment-token): the installer carries it. Errors: {detail}.";
    } else if (path === '/api/v3/auth/login') {
      op.security = [];
      how = 'No credentials: the email and password (and TOTP code) are. Sets the rmm_session cookie. Errors: {detail}.';
    } else if (path.startsWith('/api/v3/auth/')) {
      op.security = [{ [SESSION_COOKIE_SECURITY]: [] }];
      how = 'Needs the rmm_session cookie of a signed-in operator. Errors: {detail}.';
    } else if (path.startsWith('/api/v3')) {
      op.security = [{ [API_KEY_SECURITY]: [] }, { [SESSION_COOKIE_SECURITY]: [] }];
      const scope = op['x-required-scope'];
      const also = op['x-also-requires-scope'];
      const when = op['x-also-requires-scope-when'];
      how = also
        ? `Needs an X-API-KEY (Authorize: api-key) with the scope ${scope ?? 'admin'} and ${also}${when ? ` (${when})` : ''}, or admin. Errors: {detail}.`
        : `Needs an X-API-KEY (Authorize: api-key) with the scope ${scope ?? 'admin'}${scope === 'admin' ? '' : ' or admin'}, or a console session whose role has it. Errors: {detail}.`;
    } else if (path.startsWith('/functions/v1')) {
      op.security = [{ [USER_JWT_SECURITY]: [] }];
      how = "Needs the user's access token (Authorize: user-jwt). Errors: {error}.";
    } else if (path === '/auth/v1/user' || path === '/auth/v1/logout') {
      op.security = [{ [DATA_KEY_SECURITY]: [], [USER_JWT_SECURITY]: [] }];
      how = "Needs the apikey and the user's access token (Authorize: data-key and user-jwt). Errors: GoTrue's body.";
    } else if (path.startsWith('/auth/v1')) {
      op.security = [{ [DATA_KEY_SECURITY]: [] }];
      how = path.startsWith('/auth/v1/admin')
        ? "Needs DATA_SERVICE_ROLE_KEY as the apikey (Authorize: data-key). Errors: GoTrue's body."
        : "Needs the apikey (Authorize: data-key). Errors: GoTrue's body.";
    } else if (path.startsWith('/rest/v1')) {
      // A bearer alone is enough (the enrollment function's calls send no apikey); without one, the apikey decides the role.
      op.security = [{ [DATA_KEY_SECURITY]: [] }, { [USER_JWT_SECURITY]: [] }, { [DATA_KEY_SECURITY]: [], [USER_JWT_SECURITY]: [] }];
      how = "Needs the apikey, a user's access token, or both (Authorize: data-key, user-jwt); row-level security decides what the role sees. Errors: PostgREST's body.";
    } else {
      continue;
    }
    op.description ??= how;
  }
  return document;
}

/** A response's description when its decorator gave none. */
const STATUS_TEXT: Record<number, string> = {
  400: 'The input is invalid',
  401: 'Not authenticated',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  410: 'Gone',
  429: 'Rate limited; Retry-After says when to come back',
  502: 'An upstream service failed',
  503: 'Unavailable now; Retry-After says when to retry',
  504: 'Timed out',
};

/**
 * The answers the HTTP layer itself gives, added to every operation that can get them, so that every
 * status a client can see is documented: 400 for unreadable input, 404 for a path that names nothing,
 * 413/415 for a body too large or of another type, 414 for an over-long path parameter, 429 past a rate
 * limit, 503 while the database has no free connection. An operation's own description of a status wins.
 * A 404 declared on a whole /api/v3 controller is dropped from its operations that name no resource (lists,
 * creations): no path there can name nothing.
 */
function addCommonAnswers(document: OpenAPIObject): OpenAPIObject {
  for (const { path, method, op } of operationsOf(document)) {
    if (path === '/healthz' || path === '/readyz') {
      op.responses['431'] ??= { description: 'Request Header Fields Too Large: the URL and headers together are over 16 KiB' };
      continue;
    }
    const params = op.parameters ?? [];
    const hasPathParams = params.some((p) => p.in === 'path');
    // Ids are decimal integers (ParseIdPipe); "number" would make Swagger UI offer 0 and accept 1.5.
    for (const p of params) {
      if (p.in === 'path' && p.schema?.type === 'number') {
        p.schema = { type: 'integer' };
        p.example ??= 1;
      }
    }
    if (path.startsWith('/api/v3') && !hasPathParams) delete op.responses['404'];
    const add = (status: number, description: string): void => {
      op.responses[String(status)] ??= { description };
    };
    // The admin list reads page and per_page leniently (anything else is the default), so it has no 400.
    const lenientQuery = path === '/auth/v1/admin/users' && method === 'get';
    if (op.requestBody || (params.some((p) => p.in === 'query') && !lenientQuery) || path.startsWith('/rest/v1')) add(400, 'The input cannot be read or is invalid');
    if (path.startsWith('/rest/v1') && method !== 'get') add(409, 'A row conflicts with another (unique key) or names a row that does not exist (foreign key)');
    if (path.startsWith('/rest/v1')) add(406, 'The Accept or Accept-Profile header asks for what this server does not give');
    if (hasPathParams) {
      add(404, 'Not found: the path names nothing');
      add(414, 'URI Too Long: a path parameter over 100 characters');
    }
    if (op.requestBody) {
      add(413, 'The body is larger than this surface takes');
      add(415, 'The body is not of a type this operation takes');
    }
    // (/deploy documents its own 429; the agent binaries and the agent's ping are not rate limited: docs/api.md, "Agent binaries")
    if (!path.startsWith('/deploy') && path !== '/agent/v1/download/{target}' && path !== '/agent/v1/ping') add(429, 'Rate limited; Retry-After says when to come back');
    if (path.startsWith('/auth/v1/admin')) add(403, 'The caller is not the service role (not_admin), or its token is invalid (bad_jwt)');
    else if (path.startsWith('/auth/v1') && path !== '/auth/v1/token') add(403, 'The bearer token is invalid or its session ended (bad_jwt, session_not_found)');
    // (Refused by the HTTP parser before a surface is known: the body is {statusCode, message}.)
    op.responses['431'] ??= { description: 'Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message}' };
    add(503, 'The database has no free connection now; Retry-After says when to retry');
  }
  return document;
}

/** The first required property of an operation's JSON body, if it has one. */
function requiredBodyField(document: OpenAPIObject, op: Operation): string | undefined {
  const body = op.requestBody as { content?: Record<string, { schema?: { $ref?: string; required?: string[] } }> } | undefined;
  let schema = body?.content?.['application/json']?.schema;
  if (schema?.$ref) schema = document.components?.schemas?.[schema.$ref.split('/').pop()!] as typeof schema;
  return schema?.required?.[0];
}

/**
 * Every error answer of a surface gets its surface's body schema and its own example(s), rendered from the
 * surfaces' error tables (openapi-examples.ts), replacing any example a DTO's properties would suggest.
 */
function addErrorExamples(document: OpenAPIObject, surfaces: readonly ErrorSurface[]): OpenAPIObject {
  for (const { path, method, op } of operationsOf(document)) {
    for (const [key, response] of Object.entries(op.responses)) {
      const status = Number(key);
      if (!(status >= 400) || status === 431) continue;
      if (!response.description) response.description = STATUS_TEXT[status] ?? 'Error';
      const schema = errorSchemaOf(surfaces, path, status);
      if (!schema) continue;
      const examples = errorExamples(surfaces, path, method, status, requiredBodyField(document, op));
      const media: MediaType = { schema };
      if (examples.length === 1) media.example = examples[0].value;
      else if (examples.length > 1) media.examples = Object.fromEntries(examples.map((e) => [e.summary, e]));
      response.content = { 'application/json': media };
    }
  }
  return document;
}

/** The events WebSocket's AsyncAPI 3 document (docs/asyncapi.yaml), served beside Swagger UI. */
export const ASYNCAPI_PATH = '/docs/asyncapi.yaml';

/** docs/asyncapi.yaml of the project this code runs from (src/ under ts-jest, dist/ once built), if present. */
export function asyncApiFile(from = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const file = join(dir, 'docs', 'asyncapi.yaml');
      return existsSync(file) ? file : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** What Swagger UI loads; the rest of swagger-ui-dist (package.json, README, source maps, its stock index.html) is not served. */
const DOCS_FILES = new Set([
  '/docs',
  '/docs/openapi.json',
  '/docs/openapi.yaml',
  ASYNCAPI_PATH,
  '/docs/swagger-ui.css',
  '/docs/swagger-ui-bundle.js',
  '/docs/swagger-ui-standalone-preset.js',
  '/docs/swagger-ui-init.js',
  '/docs/favicon-32x32.png',
  '/docs/favicon-16x16.png',
]);

/**
 * Swagger UI at /docs, the document at /docs/openapi.json, the events WebSocket's AsyncAPI document at
 * /docs/asyncapi.yaml; /docs/ redirects so relative assets load. Keys
 * typed under "Authorize" are not kept in the browser's storage (an admin key would outlive the tab).
 */
export function setupSwagger(app: INestApplication, surfaces: readonly ErrorSurface[]): OpenAPIObject {
  const document = buildOpenApiDocument(app, surfaces);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onRequest', (request, reply, done) => {
    const q = request.url.indexOf('?');
    const path = q < 0 ? request.url : request.url.slice(0, q);
    if (path === '/docs/') {
      void reply.redirect('/docs', 301);
      return;
    }
    if (path.startsWith('/docs/') && !DOCS_FILES.has(path)) {
      void reply.code(404).type('application/json; charset=utf-8').send(JSON.stringify({ statusCode: 404, message: 'Not found' }));
      return;
    }
    done();
  });
  const asyncApi = asyncApiFile();
  const asyncApiText = asyncApi ? readFileSync(asyncApi, 'utf8') : undefined;
  fastify.get(ASYNCAPI_PATH, (_request, reply) => {
    if (asyncApiText === undefined) {
      void reply.code(404).type('application/json; charset=utf-8').send(JSON.stringify({ statusCode: 404, message: 'Not found' }));
      return;
    }
    void reply.type('application/yaml; charset=utf-8').send(asyncApiText);
  });
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'RMM server API',
    swaggerOptions: { persistAuthorization: false },
  });
  return document;
}
