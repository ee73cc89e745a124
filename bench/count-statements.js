'use strict';
/**
 * Preloaded into a server under bench (`node --require bench/count-statements.js …`, e.g. through
 * BENCH_SERVER_NODE_OPTIONS): counts every statement the server sends to PostgreSQL (pg's Client.query, which
 * TypeORM's pool uses too), by kind, and writes the totals to $BENCH_STATEMENTS_FILE twice a second. The bench reads
 * the file before and after what it measures. Nothing else changes in the server.
 */
const { writeFileSync } = require('node:fs');
const pg = require('pg');

const file = process.env.BENCH_STATEMENTS_FILE;
if (file) {
  const counts = { total: 0, checksWrites: 0 };
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function query(config, ...rest) {
    const text = typeof config === 'string' ? config : config && config.text;
    if (typeof text === 'string') {
      counts.total++;
      // writes of agents' check rows: the policy engine's (and any other writer's) INSERT / UPDATE / DELETE on checks
      if (/^\s*(INSERT INTO|UPDATE|DELETE FROM)\s+"?checks"?\b/i.test(text) || /^\s*WITH[\s\S]*\b(INSERT INTO|UPDATE|DELETE FROM)\s+"?checks"?\b/i.test(text)) counts.checksWrites++;
    }
    return original.call(this, config, ...rest);
  };
  const flush = () => {
    try {
      writeFileSync(file, JSON.stringify(counts));
    } catch {
      /* the bench reads what it can */
    }
  };
  setInterval(flush, 500).unref();
  process.on('exit', flush);
}
