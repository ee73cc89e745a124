#!/usr/bin/env node
// Builds the operator console (apps/console/, a React single-page app) with Vite into dist/console/: index.html
// and hashed assets under dist/console/assets/, which the server serves at /app/ (apps/api/src/console/).
// `--if-stale`: only when a source is newer than the last build (npm start and the console's browser test use it).
// The server's build (nest build) empties dist/ first, so after it the console is missing and built again.
// Build output goes to stderr, as the other build scripts'.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { newest } = require('./newest-mtime');
const { acquire } = require('./build-lock');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'dist', 'console');
const stamp = path.join(outDir, '.build-stamp');
// libs/entities/src/enums.ts: the scopes, roles and other lists the console shares with the server (some of them the
// agent protocol's, libs/protocol/src/constants.ts).
const inputs = [
  path.join(root, 'apps', 'console'),
  path.join(root, 'libs', 'entities', 'src', 'enums.ts'),
  path.join(root, 'libs', 'protocol', 'src', 'constants.ts'),
  path.join(root, 'package-lock.json'),
  __filename,
];

async function main() {
  acquire(root, 'build-console'); // (released when this process exits)
  if (process.argv.includes('--if-stale')) {
    const built = fs.existsSync(stamp) && fs.existsSync(path.join(outDir, 'index.html')) ? fs.statSync(stamp).mtimeMs : 0;
    if (built >= Math.max(...inputs.map((p) => newest(p)))) return;
  }
  const started = Date.now();
  // Always the production build of React and the rest, whatever NODE_ENV the caller has (Jest sets 'test').
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  await build({
    configFile: path.join(root, 'apps', 'console', 'vite.config.mjs'),
    mode: 'production',
    logLevel: 'warn',
  });
  fs.writeFileSync(stamp, new Date().toISOString());
  process.stderr.write(`built dist/console (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

main().catch((err) => {
  process.stderr.write(`console build failed: ${err && err.message ? err.message : err}\n`);
  process.exit(1);
});
