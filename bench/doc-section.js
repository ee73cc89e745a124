'use strict';
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const PERFORMANCE_DOC = path.resolve(__dirname, '..', 'docs', 'performance.md');

/**
 * Puts `table` between `<!-- NAME:start -->` and `<!-- NAME:end -->` of docs/performance.md (or `doc`), where each
 * bench writes its latest figures. Nothing when the file or its markers are missing.
 */
function replaceDocSection(name, table, doc = PERFORMANCE_DOC) {
  if (!existsSync(doc)) return;
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const text = readFileSync(doc, 'utf8');
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  if (i < 0 || j < i) return;
  writeFileSync(doc, `${text.slice(0, i + start.length)}\n${table}${text.slice(j)}`);
}

module.exports = { replaceDocSection };
