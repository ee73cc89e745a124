import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../config/app-config';
import { createLogger } from '../logging/logger';
import { createServer } from '../../server';
import { buildOpenApiDocument } from './swagger';

/** `npm run openapi`: writes docs/openapi.json from the running code (a test fails when it is stale). */
async function main(): Promise<void> {
  const server = await createServer(loadConfig(), { logger: createLogger('warn') });
  try {
    const file = resolve(process.cwd(), 'docs', 'openapi.json');
    writeFileSync(file, `${JSON.stringify(buildOpenApiDocument(server.app), null, 2)}\n`);
    process.stderr.write(`wrote ${file}\n`);
  } finally {
    await server.close();
  }
}

void main();
