#!/usr/bin/env node
// The container image's entry point (Dockerfile's CMD): the server, provided DATABASE_URL is set. The image
// leaves out the embedded PostgreSQL (an optional dependency), so without DATABASE_URL the server would fail
// on its data folder with a less helpful message; this says what is missing instead.
'use strict';
if ((process.env.DATABASE_URL ?? '').trim() === '') {
  process.stderr.write('rmm-server: DATABASE_URL is required in the container image (it has no embedded PostgreSQL); see docs/deploy.md\n');
  process.exit(1);
}
require('../dist/apps/api/src/main.js');
