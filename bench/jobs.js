'use strict';
/**
 * `node bench/jobs.js`: what the periodic-job registry costs per tick (issue 28), against a bare timer loop doing
 * the same work. Both run a job that does nothing, TICKS times, each wait 1 ms (setTimeout's floor), one after the
 * other: the registry's way (ScheduledJob: jitter, single-flight, figures, one Nest SchedulerRegistry timeout re-armed
 * per run) and a bare `setTimeout` chain. The difference of their CPU time per tick is the registry's overhead.
 * Run on the built server (npm run build first). Nothing here asserts.
 */
const path = require('node:path');
const { Logger } = require('@nestjs/common');
const { SchedulerRegistry } = require('@nestjs/schedule');
const { ScheduledJob } = require(path.join(__dirname, '../dist/apps/api/src/jobs/scheduled-job.js'));

const TICKS = Number(process.argv[2] ?? 20_000);

function cpuMs(since) {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}

function bare() {
  return new Promise((resolve) => {
    let n = 0;
    const tick = () => {
      if (++n >= TICKS) return resolve();
      setTimeout(tick, 1);
    };
    setTimeout(tick, 1);
  });
}

function registry() {
  return new Promise((resolve) => {
    const timers = new SchedulerRegistry();
    let n = 0;
    const env = {
      timers: {
        set: (name, fire, ms) => {
          if (timers.doesExist('timeout', name)) timers.deleteTimeout(name);
          timers.addTimeout(name, setTimeout(fire, ms)); // (not unref: the bench waits on them)
        },
        clear: (name) => timers.doesExist('timeout', name) && timers.deleteTimeout(name),
      },
      lead: async () => true,
      stopWaitMs: 1_000,
      random: Math.random,
      logger: new Logger('bench'),
    };
    const job = new ScheduledJob('bench.noop', { seconds: 0.001, mode: 'every-instance', jitter: 0 }, () => {
      if (++n >= TICKS) void job.stop().then(resolve);
    }, env);
    job.start();
  });
}

async function measure(name, run) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await run();
  const cpu = cpuMs(c0);
  const wall = performance.now() - t0;
  return { name, ticks: TICKS, cpuMsTotal: Math.round(cpu), cpuUsPerTick: Math.round((cpu * 1000 * 100) / TICKS) / 100, wallMs: Math.round(wall) };
}

async function main() {
  // warm-up, then alternate so that a busy moment of the machine hits both
  await registry();
  await bare();
  const rows = [];
  for (let i = 0; i < 3; i++) {
    rows.push(await measure('bare setTimeout chain', bare));
    rows.push(await measure('registry (ScheduledJob)', registry));
  }
  console.table(rows);
  const avg = (n) => rows.filter((r) => r.name === n).reduce((a, r) => a + r.cpuUsPerTick, 0) / 3;
  console.log(`registry overhead per tick: ${(avg('registry (ScheduledJob)') - avg('bare setTimeout chain')).toFixed(2)} µs of CPU`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
