#!/usr/bin/env node
// The operator console's API types, generated from the committed docs/openapi.json by openapi-typescript into
// apps/console/src/api/openapi.d.ts. `npm run openapi` runs it after writing the document;
// test/docs/console-types.e2e-spec.ts fails when the committed file is not what this makes.
// `node scripts/openapi-types.js [--stdout] [DOC]`: DOC instead of docs/openapi.json; --stdout prints instead of writing.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const DOC = path.join(root, 'docs', 'openapi.json');
const OUT = path.join(root, 'apps', 'console', 'src', 'api', 'openapi.d.ts');

/** The generated file for an OpenAPI document (its JSON text): the same document always makes the same text. */
async function generateTypes(docText) {
  const { default: openapiTS, astToString } = require('openapi-typescript');
  const { version } = require('openapi-typescript/package.json');
  // defaultNonNullable off: a request field with a default (runscript's `timeout`, a deployment's `arch`) stays
  // optional, as the document's `required` says; on (the generator's default), the console would have to send it.
  const ast = await openapiTS(JSON.parse(docText), { defaultNonNullable: false, silent: true });
  const header =
    `// Generated from docs/openapi.json by openapi-typescript ${version}: do not edit. \`npm run openapi\` writes the\n` +
    '// document and then this file again; test/docs/console-types.e2e-spec.ts fails when this one is stale.\n';
  return header + astToString(ast);
}

async function main() {
  const args = process.argv.slice(2);
  const toStdout = args.includes('--stdout');
  const doc = args.find((a) => !a.startsWith('--')) ?? DOC;
  const text = await generateTypes(fs.readFileSync(doc, 'utf8'));
  if (toStdout) {
    process.stdout.write(text);
    return;
  }
  fs.writeFileSync(OUT, text);
  process.stderr.write(`wrote ${OUT}\n`);
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  });
}

module.exports = { generateTypes };
