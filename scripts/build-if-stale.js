#!/usr/bin/env node
// Builds dist/ with the Nest CLI (tsc + the Swagger plugin) when a source file is newer than the
// last build, so `npm start`, `npm run cli` and the process tests never run stale code.
// Build output goes to stderr: the CLI's stdout stays clean for scripts.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { newest } = require('./newest-mtime');
const { acquire } = require('./build-lock');

const root = path.resolve(__dirname, '..');
const stamp = path.join(root, 'dist', '.build-stamp');
// apps/agent and apps/console are not part of the server: scripts/build-agent.js and build-console.js build them.
const skip = new Set([path.join(root, 'apps', 'agent'), path.join(root, 'apps', 'console')]);
const inputs = ['apps', 'libs', 'migrations', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'];


acquire(root, 'build'); // (released when this process exits)
const built = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
const latest = Math.max(...inputs.map((i) => newest(path.join(root, i), skip)));
if (built >= latest && process.argv[2] !== '--force') process.exit(0);

const nest = path.join(root, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js');
const result = spawnSync(process.execPath, [nest, 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
if (result.status !== 0) {
  process.stderr.write('build failed\n');
  process.exit(result.status ?? 1);
}
fs.writeFileSync(stamp, new Date().toISOString());
