#!/usr/bin/env node
'use strict';
// RMM_WATCH_KEY=KEY npm run -s watch -- --url URL --agent ID
// Prints an agent's live events (the events WebSocket /rmm/{agent_id}/, docs/events.md), one readable line each.
// Plain JavaScript on the `ws` package: it runs right after `npm ci`, with no build step.
// Exit codes: 0 on Ctrl-C; 1 when the server refuses (401 bad key, 403 scope, 404 agent), cannot be reached at
// the first attempt, or closes for good (4401 key revoked or expired, 4404 agent deleted; any close with
// --no-reconnect); 2 for a usage error. Any other drop (server restart 1001, network, 1013 too slow) reconnects
// with back-off (1 s doubling to 30 s), printing a line each time.

const WebSocket = require('ws');

const USAGE = `usage: npm run watch -- --agent ID [--url URL] [--key KEY] [--json] [--no-reconnect]

  --agent ID       the agent whose events to print (required)
  --url URL        the server (default: $RMM_URL or http://localhost:3000); http(s):// or ws(s)://
  --key KEY        a management API key with agents:read (default: $RMM_WATCH_KEY; the
                   variable keeps the key out of the command line that npm and ps show)
  --json           print each message as the server sent it (one JSON object a line)
  --no-reconnect   exit (1) when the connection drops instead of reconnecting

A key: npm run -s cli -- apikey create --name watch --scopes agents:read
(RMM_API_KEY, which \`keys show\` prints, is the enrollment function's key and cannot watch.)
`;

/** What to do about a refused key, after the server's answer. */
const KEY_HINT = 'watch needs a management API key with the agents:read scope (an admin key has it); create one with: npm run -s cli -- apikey create --name watch --scopes agents:read, and pass it in RMM_WATCH_KEY';

/** Closes after which reconnecting cannot help. */
const FINAL_CLOSES = new Set([4401, 4404]);

function parseArgs(argv) {
  const opts = { url: process.env.RMM_URL || 'http://localhost:3000', key: process.env.RMM_WATCH_KEY || '', agent: '', json: false, reconnect: true };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline !== undefined ? inline : argv[++i];
      if (v === undefined || v === '') throw new Error(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--url':
        opts.url = value();
        break;
      case '--key':
        opts.key = value();
        break;
      case '--agent':
        opts.agent = value();
        break;
      case '--json':
        opts.json = true;
        break;
      case '--no-reconnect':
        opts.reconnect = false;
        break;
      case '-h':
      case '--help':
        opts.help = true;
        break;
      default:
        throw new Error(`unknown argument ${arg}`);
    }
  }
  if (opts.help) return opts;
  if (!opts.agent) throw new Error('--agent is required');
  if (!/^\d{1,10}$/.test(opts.agent)) throw new Error(`--agent must be an agent id (digits), not ${JSON.stringify(opts.agent)}`);
  if (!opts.key) throw new Error('a key is required: RMM_WATCH_KEY (or --key), a management API key with agents:read');
  let url;
  try {
    url = new URL(opts.url);
  } catch {
    throw new Error(`--url is not a URL: ${JSON.stringify(opts.url)}`);
  }
  const protocol = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' }[url.protocol];
  if (!protocol) throw new Error(`--url must be http(s):// or ws(s)://, not ${url.protocol}`);
  url.protocol = protocol;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/rmm/${opts.agent}/`;
  url.search = '';
  url.hash = '';
  opts.wsUrl = url.toString();
  return opts;
}

const quote = (text, max = 200) => {
  const s = JSON.stringify(String(text));
  return s.length > max ? `${s.slice(0, max - 2)}…"` : s;
};

/** One readable line for a message `{event, agent_id, ts, data}`. */
function formatLine(m) {
  const d = m.data && typeof m.data === 'object' ? m.data : {};
  const time = typeof m.ts === 'string' && /T(\d\d:\d\d:\d\d)/.test(m.ts) ? /T(\d\d:\d\d:\d\d)/.exec(m.ts)[1] : '--:--:--';
  let text;
  switch (m.event) {
    case 'hello': {
      const n = Array.isArray(d.alerts) ? d.alerts.length : 0;
      text = `agent ${m.agent_id} ${d.hostname} ${d.status}, ${n} open alert${n === 1 ? '' : 's'}`;
      break;
    }
    case 'agent.online':
    case 'agent.offline':
    case 'agent.overdue':
      text = `agent ${m.agent_id}`;
      break;
    case 'agent.updated':
      text = `agent ${m.agent_id} ${d.hostname} ${d.status}`;
      break;
    case 'script.queued':
      text = `run ${d.run_id} script ${d.script} until ${d.expires_at}`;
      break;
    case 'script.started':
      text = `run ${d.run_id} script ${d.script}`;
      break;
    case 'script.output':
      text = `run ${d.run_id} ${d.stream} ${quote(d.chunk)}`;
      break;
    case 'script.finished':
      text = `run ${d.run_id} retcode ${d.retcode === null ? '-' : d.retcode} in ${typeof d.execution_time === 'number' ? d.execution_time.toFixed(3).replace(/\.?0+$/, '') : d.execution_time} s${d.timed_out ? ', timed out' : ''}`;
      break;
    case 'check.status':
      text = `check ${d.check_id} ${d.previous_status} -> ${d.status}${d.more_info ? ` ${quote(d.more_info)}` : ''}`;
      break;
    case 'alert.created':
      text = `alert ${d.id} ${d.alert_type} ${d.severity} ${quote(d.message)}`;
      break;
    case 'alert.acknowledged':
      text = `alert ${d.id} ${d.alert_type} acknowledged by ${d.acknowledged_by}`;
      break;
    case 'alert.resolved':
      text = `alert ${d.id} ${d.alert_type} resolved by ${d.resolved_by}`;
      break;
    case 'task.run':
      text = `task ${d.task_id} run ${d.run_id} ${d.status} retcode ${d.retcode === null ? '-' : d.retcode}`;
      break;
    default:
      text = JSON.stringify(m.data);
  }
  return `${time} ${String(m.event).padEnd(18)} ${text}`;
}

function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`watch: ${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (opts.help) {
    process.stdout.write(USAGE);
    return;
  }
  const stamp = () => new Date().toISOString().slice(11, 19);
  const note = (text) => process.stderr.write(`${stamp()} ${text}\n`);
  let everConnected = false;
  let delay = 1000;
  let current;
  let stopping = false;

  const connect = () => {
    const ws = new WebSocket(opts.wsUrl, { headers: { 'X-API-KEY': opts.key } });
    current = ws;
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c.length < 4096 ? c : ''));
      res.on('end', () => {
        let detail = body.trim();
        try {
          detail = JSON.parse(body).detail || detail;
        } catch {
          /* not JSON: print it as it is */
        }
        process.stderr.write(`watch: the server refused: ${res.statusCode} ${detail}\n`);
        if (res.statusCode === 401 || res.statusCode === 403) process.stderr.write(`watch: ${KEY_HINT}\n`);
        process.exit(1);
      });
    });
    ws.on('open', () => {
      everConnected = true;
      delay = 1000;
      note(`connected to ${opts.wsUrl}`);
    });
    ws.on('message', (raw) => {
      if (opts.json) {
        process.stdout.write(`${raw.toString()}\n`);
        return;
      }
      let m;
      try {
        m = JSON.parse(raw.toString());
      } catch {
        process.stdout.write(`${stamp()} ${'(unreadable)'.padEnd(18)} ${quote(raw.toString())}\n`);
        return;
      }
      process.stdout.write(`${formatLine(m)}\n`);
    });
    ws.on('error', (err) => {
      if (!everConnected) {
        process.stderr.write(`watch: cannot connect to ${opts.wsUrl}: ${err.code || err.message}\n`);
        process.exit(1);
      }
      // (after a drop: 'close' follows and decides)
    });
    ws.on('close', (code, reason) => {
      if (stopping || !everConnected) return;
      const why = `${code}${reason.length ? ` ${reason.toString()}` : ''}`;
      if (FINAL_CLOSES.has(code) || !opts.reconnect) {
        process.stderr.write(`watch: closed by the server: ${why}\n`);
        process.exit(1);
      }
      note(`connection closed (${why}); reconnecting in ${delay / 1000} s`);
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30_000);
    });
  };

  const stop = () => {
    stopping = true;
    if (current && current.readyState === WebSocket.OPEN) current.close(1000, 'watch stopped');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  connect();
}

if (require.main === module) main();

module.exports = { parseArgs, formatLine };
