'use strict';
/**
 * The reconnect storm alone, repeated: N agents connected to the real server (its own child process, its own
 * database), then R rounds of SIGTERM + start again, each timed from the restarted server's /readyz to the last
 * agent's `hello` (the same figure as `npm run bench`'s storm row). For working on the storm without the ten
 * minutes of the whole bench:
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/storm.js --agents 19900 --rounds 3
 *
 * BENCH_SERVER_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles each server process. Traffic goes to
 * 127.0.0.1 only.
 */
const { readFileSync, readdirSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ServerProcess, Simulators, benchEnv, createDatabase, dropDatabase, freePort, round, seedAgents, sleep, waitFor, dbCounters } = require('./agents');

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of every process whose command is `name` (postgres, the simulators' node). */
function cpuOfCommand(match) {
  let sum = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) sum += cpuSeconds(pid);
    } catch {
      /* gone */
    }
  }
  return sum;
}

/** SYNs the kernel dropped because a listening socket's accept queue was full (ListenOverflows, /proc/net/netstat). */
function listenOverflows() {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((l) => l.startsWith('TcpExt:'));
  const names = lines[0].split(/\s+/);
  const values = lines[1].split(/\s+/);
  return Number(values[names.indexOf('ListenOverflows')]);
}

/** The machine's busy and total CPU seconds, from /proc/stat. */
function machineCpu() {
  const [, ...v] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const n = v.map(Number);
  const total = n.reduce((a, b) => a + b, 0) / 100;
  return { busy: total - (n[3] + n[4]) / 100, total };
}

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main() {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL (a PostgreSQL server this script may create a database on) is required');
  const n = arg('agents', 19_900);
  const rounds = arg('rounds', 3);
  const name = `rmm_storm_${process.pid}`;
  const databaseUrl = await createDatabase(base, name);
  const server = new ServerProcess(benchEnv(databaseUrl, await freePort()), path.join(__dirname, 'results', 'storm-server.log'));
  let sims;
  try {
    await server.start();
    const agents = await seedAgents(databaseUrl, n);
    sims = new Simulators(server.url, agents, { concurrency: 200 });
    const t0 = performance.now();
    await sims.connectAll();
    await waitFor(async () => (await dbCounters(databaseUrl)).online, (v) => v >= n, 30_000);
    console.log(`${n} agents online in ${round((performance.now() - t0) / 1000, 2)} s (load ${os.loadavg()[0].toFixed(2)})`);
    await sleep(10_000);
    const results = [];
    for (let r = 1; r <= rounds; r++) {
      const before = await sims.stats();
      sims.rearm();
      const back = sims.whenAllReady();
      const overflows0 = listenOverflows();
      const stopped = await server.stop();
      await server.start();
      const readyAt = performance.now();
      const cpu0 = { server: cpuSeconds(server.pid), pg: cpuOfCommand((c) => c.startsWith('postgres')), sims: cpuOfCommand((c) => c.includes('bench/sim.js')), machine: machineCpu() };
      // how the agents came back: the share greeted again at each quarter second after ready
      const curve = [];
      let done = false;
      void back.then(() => (done = true));
      while (!done) {
        await sleep(250);
        const st = await sims.stats();
        curve.push([round((performance.now() - readyAt) / 1000, 2), st.hellos - before.hellos, listenOverflows() - overflows0]);
      }
      await back;
      const seconds = round((performance.now() - readyAt) / 1000, 2);
      const m1 = machineCpu();
      const cpu = {
        server: round(cpuSeconds(server.pid) - cpu0.server, 1),
        postgres: round(cpuOfCommand((c) => c.startsWith('postgres')) - cpu0.pg, 1),
        simulators: round(cpuOfCommand((c) => c.includes('bench/sim.js')) - cpu0.sims, 1),
        machineBusy: round(m1.busy - cpu0.machine.busy, 1),
        machineTotal: round(m1.total - cpu0.machine.total, 1),
      };
      const overflows = listenOverflows() - overflows0;
      const after = await sims.stats();
      const errors = after.otherErrors - before.otherErrors + (after.serverErrors - before.serverErrors);
      results.push(seconds);
      if (process.env.STORM_CURVE) console.log(JSON.stringify(curve));
      const at = (share) => curve.find(([, hellos]) => hellos >= share * n)?.[0] ?? seconds;
      console.log(`  back: 25 % at ${at(0.25)} s, 50 % at ${at(0.5)} s, 75 % at ${at(0.75)} s, 90 % at ${at(0.9)} s, 99 % at ${at(0.99)} s`);
      console.log(
        `storm ${r}: shutdown ${round(stopped.ms / 1000, 2)} s; all back ${seconds} s after ready; lost ${n - after.connected}; ` +
          `errors ${errors}; SYNs dropped on a full accept queue ${overflows}; load ${os.loadavg()[0].toFixed(2)}; CPU seconds meanwhile: ${JSON.stringify(cpu)}`,
      );
      await sleep(10_000);
    }
    console.log(`all back after ready: ${results.join(', ')} s`);
  } finally {
    await sims?.stop();
    await server.stop();
    await dropDatabase(base, name);
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
