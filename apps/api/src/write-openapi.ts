import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AppModule } from './app.module';
import { loadConfig } from './config/app-config';
import { ERROR_SURFACES } from './error-surfaces';
import { buildOpenApiDocument } from './openapi/swagger';

/**
 * `npm run openapi`: writes docs/openapi.json from the running code (a test fails when it is stale). The app is
 * built in Nest's preview mode: the module graph, every controller and its decorators, and no provider made, so
 * no database is opened (nor an embedded one started) and no key is generated.
 */
async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule.forRoot(loadConfig(), 'postgres://not-connected-in-preview/none'), new FastifyAdapter(), {
    preview: true,
    logger: false,
  });
  const file = resolve(process.cwd(), 'docs', 'openapi.json');
  writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(app, ERROR_SURFACES), null, 2)}\n`);
  process.stderr.write(`wrote ${file}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
