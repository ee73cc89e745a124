'use strict';
/**
 * Agent simulator: one process holding many agent connections over the real protocol (docs/agent-protocol.md).
 *
 * Each simulated agent opens WebSocket /agent/v1/ws (bench/sim-socket.js) with `X-Agent-Id` and `Authorization: Bearer <secret>`,
 * waits for `hello`, sends a heartbeat every `heartbeat_seconds` (the first one at a random point of the first
 * period, so 20,000 agents do not beat together; the first carries the facts, as the reference agent's does),
 * answers `script.run` at once with a trivial result, ignores `checks.sync`, and reconnects after any drop but
 * 4000/4001 with the reference agent's back-off (1 s doubling to 60 s, ±20 % jitter, reset once greeted; after a
 * 1001 "server shutting down", first 10 attempts at a random 1–5 s each: apps/agent/src/channel.ts reconnectDelayMs).
 *
 * Run as a child process (child_process.fork) so its memory is never counted with the server's. It is driven
 * over IPC by bench/agents.js:
 *   parent → {cmd: 'start', url, agents: [[id, secret], …], concurrency, facts}   connect them all
 *   parent → {cmd: 'stats', token}                                                answers {type: 'stats', token, …}
 *   parent → {cmd: 'stop'}                                                        closes everything and exits
 *   child  → {type: 'ready'} once every agent has had its first `hello`
 * One process should hold at most ~9,000 connections (a process may open 20,000 files here).
 */
const { SimSocket } = require('./sim-socket');

const BACKOFF_FIRST_MS = 1_000;
const BACKOFF_MAX_MS = 60_000;

/** The reference agent's back-off (apps/agent/src/channel.ts backoffMs): 1 s doubling to 60 s, ±20 %. */
function backoffMs(attempt) {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.8 + 0.4 * Math.random()));
}

/** apps/agent/src/channel.ts reconnectDelayMs: after a 1001, 10 attempts at a random 1–5 s, then the ladder from 8 s. */
const RESTART_ATTEMPTS = 10;
function reconnectDelayMs(attempt, afterShutdown) {
  if (!afterShutdown) return backoffMs(attempt);
  if (attempt < RESTART_ATTEMPTS) return Math.round(1_000 + 4_000 * Math.random());
  return backoffMs(attempt - RESTART_ATTEMPTS + 3);
}

/** The loopback source address of a simulated agent: 127.1.x.y, x and y in 1–250 (62,500 agents before they repeat). */
function sourceAddress(agentId) {
  const n = (Number(agentId) - 1) % 62_500;
  return `127.1.${1 + Math.floor(n / 250)}.${1 + (n % 250)}`;
}

const FACTS = {
  plat: 'linux',
  version: '0.1.0',
  operating_system: 'Linux 6.8.0 (simulated)',
  cpu_model: 'Simulated CPU',
  total_ram: 8,
  disks: [{ device: '/', free: '40.0 GB', total: '100.0 GB', percent: 60 }],
  local_ip: '10.0.0.2',
  logged_in_username: 'bench',
};

class Simulator {
  constructor(url, agents, options = {}) {
    this.url = url.replace(/^http/, 'ws').replace(/\/+$/, '') + '/agent/v1/ws';
    // On loopback each simulated agent connects from an address of its own (127.1.x.y), as real agents come from
    // their own machines: 20,000 connections from one address to one port fill the kernel's ephemeral port range
    // (about 28,000), and finding a free port for each connect() then cost the simulator more CPU than the server.
    this.loopback = /^127\./.test(new URL(this.url).hostname);
    this.agents = agents.map(([id, secret]) => ({ id: String(id), secret, ws: null, greeted: false, attempt: 0, stopped: false, timers: {} }));
    this.concurrency = options.concurrency ?? 200;
    this.facts = options.facts !== false;
    this.stats = {
      agents: agents.length,
      connected: 0, // agents holding a greeted connection now
      hellos: 0, // every `hello` received (connects and reconnects)
      heartbeats: 0,
      scriptRuns: 0,
      checksSyncs: 0,
      serverErrors: 0, // `error` messages from the server (a protocol mistake of ours)
      refusedWhileDown: 0, // ECONNREFUSED/ECONNRESET: the server is not listening (a restart)
      upgradeRefused: {}, // HTTP status at the upgrade → count (401: wrong secret, 503: database down)
      otherErrors: 0,
      closes: {}, // close code → count
      stoppedAgents: 0, // agents that stopped for good (401, 4000, 4001)
    };
    this.onReady = options.onReady ?? (() => undefined);
    this.readySent = false;
  }

  /** Opens every connection, at most `concurrency` upgrades in flight at once. */
  start() {
    let next = 0;
    let inFlight = 0;
    const pump = () => {
      while (inFlight < this.concurrency && next < this.agents.length) {
        const agent = this.agents[next++];
        inFlight++;
        let done = false;
        this.connect(agent, () => {
          if (done) return;
          done = true;
          inFlight--;
          pump();
        });
      }
    };
    pump();
  }

  connect(agent, settled = () => undefined) {
    if (agent.stopped) return settled();
    // (a lean client of the same protocol: bench/sim-socket.js says why not `ws`)
    const ws = new SimSocket(this.url, {
      headers: { 'X-Agent-Id': agent.id, Authorization: `Bearer ${agent.secret}` },
      handshakeTimeout: 30_000,
      ...(this.loopback ? { localAddress: sourceAddress(agent.id) } : {}),
    });
    agent.ws = ws;
    let greeted = false;
    let answered = false; // the upgrade was answered with an HTTP status (counted there)
    ws.on('unexpected-response', (_req, res) => {
      answered = true;
      this.stats.upgradeRefused[res.statusCode] = (this.stats.upgradeRefused[res.statusCode] ?? 0) + 1;
      res.resume();
      if (res.statusCode === 401) {
        agent.stopped = true;
        this.stats.stoppedAgents++;
      }
      ws.terminate();
    });
    ws.on('error', (err) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'ECONNRESET') this.stats.refusedWhileDown++;
      else if (!answered) {
        this.stats.otherErrors++;
        if (this.stats.otherErrors <= 3) process.stderr.write(`[sim] agent ${agent.id}: ${err.code ?? ''} ${err.message}\n`);
      }
    });
    ws.on('message', (data) => {
      let message;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      switch (message.type) {
        case 'hello':
          greeted = true;
          agent.greeted = true;
          agent.attempt = 0;
          this.stats.hellos++;
          this.stats.connected++;
          this.startHeartbeats(agent, ws, Number(message.heartbeat_seconds) || 30);
          settled();
          this.checkReady();
          return;
        case 'script.run':
          this.stats.scriptRuns++;
          ws.send(
            JSON.stringify({ type: 'result', id: message.id, ok: true, result: { retcode: 0, stdout: 'ok\n', stderr: '', executionTime: 0.001, timedOut: false } }),
          );
          return;
        case 'checks.sync':
          this.stats.checksSyncs++;
          // bench/policies.js: when this agent's list first carries a check named with the watched marker
          if (this.watch && !agent.seen?.has(this.watch) && Array.isArray(message.checks) && message.checks.some((c) => String(c?.name ?? '').includes(this.watch))) {
            (agent.seen ??= new Set()).add(this.watch);
            this.watchTimes.push(Date.now());
          }
          return;
        case 'error':
          this.stats.serverErrors++;
          return;
        default:
      }
    });
    ws.on('close', (code) => {
      clearTimeout(agent.timers.first);
      clearInterval(agent.timers.every);
      if (greeted) this.stats.connected--;
      this.stats.closes[code] = (this.stats.closes[code] ?? 0) + 1;
      settled();
      if (agent.ws === ws) agent.ws = null;
      if (this.stopping || agent.stopped) return;
      if (code === 4000 || code === 4001) {
        agent.stopped = true;
        this.stats.stoppedAgents++;
        return;
      }
      if (greeted) agent.afterShutdown = code === 1001;
      const delay = reconnectDelayMs(greeted ? 0 : agent.attempt, agent.afterShutdown);
      agent.attempt = greeted ? 1 : agent.attempt + 1;
      agent.timers.retry = setTimeout(() => this.connect(agent), delay);
    });
  }

  /** The first heartbeat at a random point of the first period (facts with it), then every period. */
  startHeartbeats(agent, ws, seconds) {
    const period = seconds * 1000;
    const beat = (facts) => {
      if (ws.readyState !== SimSocket.OPEN) return;
      ws.send(JSON.stringify(facts ? { type: 'heartbeat', facts: FACTS } : { type: 'heartbeat' }));
      this.stats.heartbeats++;
    };
    agent.timers.first = setTimeout(() => {
      beat(this.facts);
      agent.timers.every = setInterval(() => beat(false), period);
    }, Math.floor(Math.random() * period));
  }

  checkReady() {
    if (!this.readySent && this.stats.connected + this.stats.stoppedAgents >= this.agents.length) {
      this.readySent = true;
      this.onReady();
    }
  }

  snapshot() {
    return { ...this.stats, upgradeRefused: { ...this.stats.upgradeRefused }, closes: { ...this.stats.closes }, rssBytes: process.memoryUsage().rss };
  }

  /** Marks "all connected" as pending again (before a restart, so `ready` is sent once all are back). */
  rearm() {
    this.readySent = false;
  }

  stop() {
    this.stopping = true;
    for (const agent of this.agents) {
      clearTimeout(agent.timers.first);
      clearTimeout(agent.timers.retry);
      clearInterval(agent.timers.every);
      agent.ws?.terminate();
    }
  }
}

module.exports = { Simulator, backoffMs, reconnectDelayMs, sourceAddress };

if (require.main === module && process.send) {
  let sim;
  process.on('message', (msg) => {
    if (msg.cmd === 'start') {
      sim = new Simulator(msg.url, msg.agents, { concurrency: msg.concurrency, facts: msg.facts, onReady: () => process.send({ type: 'ready' }) });
      sim.start();
    } else if (msg.cmd === 'rearm') {
      sim?.rearm();
    } else if (msg.cmd === 'stats') {
      process.send({ type: 'stats', token: msg.token, stats: sim ? sim.snapshot() : null });
    } else if (msg.cmd === 'watch') {
      if (sim) {
        sim.watch = msg.marker;
        sim.watchTimes = [];
      }
    } else if (msg.cmd === 'watched') {
      process.send({ type: 'watched', token: msg.token, times: sim?.watchTimes ?? [] });
    } else if (msg.cmd === 'stop') {
      sim?.stop();
      setTimeout(() => process.exit(0), 100).unref();
    }
  });
  process.on('disconnect', () => {
    sim?.stop();
    process.exit(0);
  });
}
