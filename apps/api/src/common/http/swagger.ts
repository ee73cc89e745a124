import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';

export const API_KEY_SECURITY = 'api-key';
export const USER_JWT_SECURITY = 'user-jwt';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('RMM server')
    .setDescription(
      'Self-hosted RMM: the device enrollment function (/functions/v1), the Supabase-compatible data platform ' +
        '(/auth/v1, /rest/v1) and the management backend (/api/v3, X-API-KEY). ' +
        'Paste a management API key under "Authorize" to try the /api/v3 calls.',
    )
    .setVersion('3')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-KEY', description: 'Management API key' }, API_KEY_SECURITY)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A data-platform user token' }, USER_JWT_SECURITY)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    // Unique across controllers: "clients" + "list" → clientsList.
    operationIdFactory: (controllerKey: string, methodKey: string) => {
      const base = controllerKey.replace(/Controller$/, '');
      return `${base.charAt(0).toLowerCase()}${base.slice(1)}${methodKey.charAt(0).toUpperCase()}${methodKey.slice(1)}`;
    },
  });
  return addCommonAnswers(document);
}

type Operation = { parameters?: Array<{ in: string }>; requestBody?: unknown; responses: Record<string, unknown> };

/** The error body of each surface, by path prefix. */
function errorSchemaOf(path: string): Record<string, unknown> | undefined {
  if (path.startsWith('/api/v3') || path.startsWith('/deploy')) return { $ref: '#/components/schemas/RmmErrorDto' };
  if (path.startsWith('/functions/v1')) return { $ref: '#/components/schemas/EnrollErrorDto' };
  if (path.startsWith('/auth/v1')) return { $ref: '#/components/schemas/GoTrueErrorDto' };
  if (path.startsWith('/rest/v1')) {
    return {
      type: 'object',
      description: "PostgREST's error body",
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'string', nullable: true }, hint: { type: 'string', nullable: true } },
    };
  }
  return undefined;
}

/**
 * The answers the HTTP layer itself gives, added to every operation that can get them, so that every
 * status a client can see is documented: 400 for unreadable input, 404 for a path that names nothing,
 * 413/415 for a body too large or of another type, 414 for an over-long path parameter, 429 past a rate
 * limit, 503 while the database has no free connection. An operation's own description of a status wins.
 */
function addCommonAnswers(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'put', 'post', 'patch', 'delete'] as const) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      const schema = errorSchemaOf(path);
      if (path === '/healthz' || path === '/readyz') {
        op.responses['431'] ??= { description: 'Request Header Fields Too Large: the URL and headers together are over 16 KiB' };
        continue;
      }
      const add = (status: number, description: string): void => {
        op.responses[String(status)] ??= schema ? { description, content: { 'application/json': { schema } } } : { description };
      };
      const params = op.parameters ?? [];
      if (op.requestBody || params.some((p) => p.in === 'query') || path.startsWith('/rest/v1')) add(400, 'The input cannot be read or is invalid');
      if (path.startsWith('/rest/v1') && method !== 'get') add(409, 'A row conflicts with another (unique key) or names a row that does not exist (foreign key)');
      if (path.startsWith('/rest/v1')) add(406, 'The Accept or Accept-Profile header asks for what this server does not give');
      if (params.some((p) => p.in === 'path')) {
        add(404, 'Not found: the path names nothing');
        add(414, 'URI Too Long: a path parameter over 100 characters');
      }
      if (op.requestBody) {
        add(413, 'The body is larger than this surface takes');
        add(415, 'The body is not of a type this operation takes');
      }
      if (!path.startsWith('/deploy')) add(429, 'Rate limited; Retry-After says when to come back');
      if (path.startsWith('/auth/v1/admin')) add(403, 'The caller is not the service role (not_admin), or its token is invalid (bad_jwt)');
      else if (path.startsWith('/auth/v1') && path !== '/auth/v1/token') add(403, 'The bearer token is invalid or its session ended (bad_jwt, session_not_found)');
      // (Refused by the HTTP parser before a surface is known: the body is {statusCode, message}.)
      op.responses['431'] ??= { description: 'Request Header Fields Too Large: the URL and headers together are over 16 KiB; body {statusCode, message}' };
      add(503, 'The database has no free connection now; Retry-After says when to retry');
    }
  }
  return document;
}

/** What Swagger UI loads; the rest of swagger-ui-dist (package.json, README, source maps, its stock index.html) is not served. */
const DOCS_FILES = new Set([
  '/docs',
  '/docs/openapi.json',
  '/docs/openapi.yaml',
  '/docs/swagger-ui.css',
  '/docs/swagger-ui-bundle.js',
  '/docs/swagger-ui-standalone-preset.js',
  '/docs/swagger-ui-init.js',
  '/docs/favicon-32x32.png',
  '/docs/favicon-16x16.png',
]);

/**
 * Swagger UI at /docs, the document at /docs/openapi.json; /docs/ redirects so relative assets load. Keys
 * typed under "Authorize" are not kept in the browser's storage (an admin key would outlive the tab).
 */
export function setupSwagger(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onRequest', (request, reply, done) => {
    const path = request.url.split('?')[0];
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
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    customSiteTitle: 'RMM server API',
    swaggerOptions: { persistAuthorization: false },
  });
  return document;
}
