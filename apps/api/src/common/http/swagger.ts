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
  return SwaggerModule.createDocument(app, config, {
    // Unique across controllers: "clients" + "list" → clientsList.
    operationIdFactory: (controllerKey: string, methodKey: string) => {
      const base = controllerKey.replace(/Controller$/, '');
      return `${base.charAt(0).toLowerCase()}${base.slice(1)}${methodKey.charAt(0).toUpperCase()}${methodKey.slice(1)}`;
    },
  });
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
