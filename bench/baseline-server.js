'use strict';
/**
 * The baseline: a bare Fastify 5 + pg server running THE SAME SQL as our agent endpoints (imported from the
 * built apps/api/src/rmm/fleet/agents/agents.sql.js) and answering the same JSON (the same row mappers), with the
 * same pool size. No auth, no rate limit, no logging: what the database and Node alone cost.
 * Run: DATABASE_URL=… PORT=… node bench/baseline-server.js   (prints "listening <url>" when ready)
 */
const { join } = require('node:path');
const Fastify = require('fastify');
const { Pool } = require('pg');

const dist = join(__dirname, '..', 'dist/apps/api/src/rmm/fleet/agents');
const sql = require(join(dist, 'agents.sql.js'));
const { toAgentDto, toAgentDetailDto } = require(join(dist, 'agents.dto.js'));

async function main() {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_SIZE ?? 20) });
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });

  app.get('/api/v3/agents/:agentId', async (req, reply) => {
    const id = Number(req.params.agentId);
    const { rows } = await pool.query(sql.AGENT_DETAIL_SQL, [id]);
    if (rows.length === 0) return reply.code(404).send({ detail: 'Not found.' });
    return toAgentDetailDto(rows[0]);
  });

  app.get('/api/v3/agents', async (req, reply) => {
    const q = req.query;
    const filter = { hostname: q.hostname };
    if (q.limit !== undefined || q.offset !== undefined) {
      const page = sql.agentPageSql(filter, q.limit === undefined ? undefined : Number(q.limit), Number(q.offset ?? 0));
      const count = sql.agentCountSql(filter);
      const [list, total] = await Promise.all([pool.query(page.text, page.values), pool.query(count.text, count.values)]);
      reply.header('X-Total-Count', String(total.rows[0].n));
      return list.rows.map(toAgentDto);
    }
    const batch = sql.agentBatchSql(filter, 0, sql.AGENT_STREAM_BATCH);
    const { rows } = await pool.query(batch.text, batch.values);
    return rows.map(toAgentDto); // the bench's filters match fewer than one batch
  });

  const url = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`listening ${url}\n`);
  const stop = () => void app.close().then(() => pool.end()).finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`);
  process.exit(1);
});
