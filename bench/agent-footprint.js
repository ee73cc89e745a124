#!/usr/bin/env node
'use strict';
/**
 * What the agent costs on a device (docs/performance.md, "The protocol's schemas in the agent"), for the Node.js
 * bundle and a single-file binary: `--version`'s CPU time and peak RSS, and the RSS of `run` connected and idle.
 *
 *   node bench/agent-footprint.js [--bundle FILE] [--binary FILE] [--runs N] [--rounds N] [--idle S]
 *
 * Defaults: dist/agent/rmm-agent.js (run with this Node.js) and dist/agent/bin/rmm-agent-<this machine>, 20
 * `--version` runs a round, 3 rounds, 10 s idle. `run` connects to a stub of the server's channel on 127.0.0.1
 * (this process: it answers the upgrade, sends `hello` and an empty `checks.sync`, and counts heartbeats), so that
 * the figure is the agent's alone; VmRSS is read from /proc after the first heartbeat and S seconds idle.
 * CPU time is the children's user + system time (/proc/self/stat), which other work on the machine disturbs less
 * than wall time. Linux only. Prints one JSON line per form; measures, asserts nothing.
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { WebSocketServer } = require('ws');

const ROOT = path.resolve(__dirname, '..');
const TICK_MS = 1000 / 100; // USER_HZ: 100 on every Linux this runs on

function parseArgs(argv) {
  const host = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  const args = { bundle: path.join(ROOT, 'dist', 'agent', 'rmm-agent.js'), binary: path.join(ROOT, 'dist', 'agent', 'bin', `rmm-agent-linux-${host}`), runs: 20, rounds: 3, idle: 10 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    i++;
    if (flag === '--bundle') args.bundle = value === 'none' ? undefined : path.resolve(value);
    else if (flag === '--binary') args.binary = value === 'none' ? undefined : path.resolve(value);
    else if (flag === '--runs') args.runs = Number(value);
    else if (flag === '--rounds') args.rounds = Number(value);
    else if (flag === '--idle') args.idle = Number(value);
    else {
      console.error(`unknown argument ${flag}\nusage: node bench/agent-footprint.js [--bundle FILE|none] [--binary FILE|none] [--runs N] [--rounds N] [--idle S]`);
      process.exit(2);
    }
  }
  return args;
}

/** The CPU time (ms) of this process's children that have ended and been waited for. */
function childrenCpuMs() {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3): cutime and cstime are fields 16 and 17.
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

/** CPU time per `--version` run (ms), over `runs` runs. */
function versionCpu(command, runs) {
  const before = childrenCpuMs();
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(command[0], [...command.slice(1), '--version'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${command.join(' ')} --version: exit ${r.status}: ${r.stderr}`);
  }
  return (childrenCpuMs() - before) / runs;
}

/** Peak RSS (MB) of one `--version` run (GNU time's %M). */
function versionPeakRss(command) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', ...command, '--version'], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  return Number(r.stderr.trim().split('\n').pop()) / 1024;
}

/** A stub of the server's channel: `hello` and an empty `checks.sync` to each agent, heartbeats counted. */
async function stubServer() {
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  const heartbeats = [];
  server.on('upgrade', (req, socket, head) => {
    if (!req.url.startsWith('/agent/v1/ws')) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.send(JSON.stringify({ type: 'hello', agent_id: '1', heartbeat_seconds: 30, server_time: new Date().toISOString() }));
      ws.send(JSON.stringify({ type: 'checks.sync', checks: [] }));
      ws.on('message', (data) => {
        const msg = JSON.parse(String(data));
        if (msg.type === 'heartbeat') heartbeats.forEach((resolve) => resolve());
      });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    firstHeartbeat: () => new Promise((resolve) => heartbeats.push(resolve)),
    close: () => {
      for (const ws of wss.clients) ws.terminate();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

function status(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)[1]);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** `run` against the stub: VmRSS (MB) after its first heartbeat and `idle` seconds. */
async function idleRss(command, idle) {
  const stub = await stubServer();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-footprint-'));
  fs.writeFileSync(path.join(prefix, 'state.json'), JSON.stringify({ server: stub.url, agent_id: '1', agent_secret: 'bench-secret' }), { mode: 0o600 });
  const child = spawn(command[0], [...command.slice(1), 'run', '--prefix', prefix], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  try {
    const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`run exited ${code}: ${stderr}`))));
    await Promise.race([stub.firstHeartbeat(), exited, new Promise((_, reject) => setTimeout(() => reject(new Error(`no heartbeat in 30 s: ${stderr}`)), 30_000))]);
    await Promise.race([new Promise((resolve) => setTimeout(resolve, idle * 1000)), exited]);
    return status(child.pid);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    await stub.close();
    fs.rmSync(prefix, { recursive: true, force: true });
  }
}

async function measure(form, command, { runs, rounds, idle }) {
  versionCpu(command, 2); // (warm the page cache)
  const cpu = [];
  const rss = [];
  const peak = [];
  for (let round = 0; round < rounds; round++) {
    cpu.push(versionCpu(command, runs));
    peak.push(versionPeakRss(command));
    rss.push(await idleRss(command, idle));
  }
  const r1 = (n) => (n === undefined ? null : Math.round(n * 10) / 10);
  return {
    form,
    file: command[command.length - 1],
    version_cpu_ms: cpu.map(r1),
    version_peak_rss_mb: peak.map(r1),
    run_idle_rss_mb: rss.map((s) => r1(s.rss)),
    run_peak_rss_mb: rss.map((s) => r1(s.hwm)),
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const forms = [];
  if (args.bundle) forms.push(['node', [process.execPath, args.bundle]]);
  if (args.binary && fs.existsSync(args.binary)) forms.push(['bun', [args.binary]]);
  for (const [form, command] of forms) console.log(JSON.stringify(await measure(form, command, args)));
}

main().catch((err) => {
  console.error(err.stack || String(err));
  process.exit(1);
});
