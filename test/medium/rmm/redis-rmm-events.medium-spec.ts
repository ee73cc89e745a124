import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { RuntimeConfig } from '../../../apps/api/src/config/runtime-config';
import { LocalRmmEvents } from '../../../apps/api/src/rmm/common/bus/rmm-events';
import { RedisRmmEvents } from '../../../apps/api/src/rmm/common/bus/redis-rmm-events';
import { RedisConnections } from '../../../apps/api/src/common/redis/redis-connections';
import { RedisPubSub } from '../../../apps/api/src/common/redis/redis-pubsub';

/** A Redis server of this test's own (never the shared one: it is stopped and started again here). */
function hasRedisServer(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
async function until(what: string, probe: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

if (!hasRedisServer()) {
  describe('RedisPubSub across a Redis outage', () => {
    console.log('skipped: the Redis-outage test starts its own redis-server, which is not installed here');
    it.skip('subscribes once Redis answers (needs redis-server)', () => undefined);
  });
} else {
  describe('RedisPubSub across a Redis outage (a redis-server of its own)', () => {
    let server: ChildProcess | undefined;
    let port: number;
    const startRedis = async (): Promise<void> => {
      server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await new Promise((r) => setTimeout(r, 300));
    };
    const stopRedis = async (): Promise<void> => {
      if (!server || server.exitCode !== null) return;
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGKILL');
      await exited;
    };
    afterEach(stopRedis);

    it('Redis down at start: events stay on this instance meanwhile, and are fanned out once Redis answers; again after a restart', async () => {
      port = await freePort();
      const config = { redisUrl: `redis://127.0.0.1:${port}`, redisPrefix: 'outage:' } as RuntimeConfig;
      const redis = new RedisConnections(config);
      const events = new RedisRmmEvents(new LocalRmmEvents(), new RedisPubSub(redis, config));
      const redis2 = new RedisConnections(config);
      const other = new RedisRmmEvents(new LocalRmmEvents(), new RedisPubSub(redis2, config));
      const here: number[] = [];
      const there: number[] = [];
      events.on('agent.updated', (e) => here.push(e.agentId));
      other.on('agent.updated', (e) => there.push(e.agentId));
      try {
        await events.onModuleInit(); // (the SUBSCRIBE fails: logged, not thrown)
        await other.onModuleInit();
        events.emit('agent.updated', { agentId: 1 });
        await until('the event delivered here without Redis', () => here.length === 1);
        expect(there).toEqual([]);

        await startRedis();
        await until('both subscribed once Redis answers', () => {
          events.emit('agent.updated', { agentId: 2 });
          return there.includes(2);
        });
        expect(here).toContain(2);

        await stopRedis();
        await startRedis();
        here.length = 0;
        there.length = 0;
        await until('subscribed again after the restart', () => {
          events.emit('agent.updated', { agentId: 3 });
          return there.includes(3) && here.includes(3);
        });
      } finally {
        await redis.onApplicationShutdown();
        await redis2.onApplicationShutdown();
        await new Promise((r) => setTimeout(r, 1100)); // (ioredis's 1 s command timers)
      }
    }, 30_000);
  });
}
