'use strict';
/**
 * Agents for bench/hands.js's load: each holds the real agent channel (`ws`), greets, beats, answers `script.run`
 * at once, and answers `session.open` of a terminal by printing `bytesPerSecond` of text (in 32 KiB frames, every
 * 100 ms, within the session's 256 KiB window as the protocol says: docs/agent-protocol.md, "Sessions") until the
 * server closes it. The frames are made here as libs/protocol/src/sessions.ts makes them.
 */
const { WebSocket } = require('ws');

const FRAME_MAX = 32 * 1024;
const WINDOW = 256 * 1024;

function frame(session, seq, payload) {
  const out = Buffer.allocUnsafe(21 + payload.length);
  out[0] = 1;
  Buffer.from(session.replace(/-/g, ''), 'hex').copy(out, 1);
  out.writeUInt32BE(seq >>> 0, 17);
  payload.copy(out, 21);
  return out;
}

class SessionAgents {
  constructor(serverUrl, agents, { bytesPerSecond }) {
    this.url = `${serverUrl.replace(/^http/, 'ws')}/agent/v1/ws`;
    this.agents = agents;
    this.perTick = Math.round(bytesPerSecond / 10);
    this.sockets = [];
    this.timers = [];
  }

  connectAll() {
    return Promise.all(this.agents.map(([id, secret]) => this.connect(id, secret)));
  }

  connect(id, secret) {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url, { headers: { 'X-Agent-Id': String(id), Authorization: `Bearer ${secret}` } });
      this.sockets.push(ws);
      const sessions = new Map();
      const text = Buffer.alloc(FRAME_MAX, 'x');
      for (let i = 79; i < text.length; i += 80) text[i] = 10;
      ws.on('error', reject);
      ws.on('message', (data, isBinary) => {
        if (isBinary) return; // (a terminal's input: ignored)
        const m = JSON.parse(data.toString());
        if (m.type === 'hello') {
          this.timers.push(setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"heartbeat"}'), m.heartbeat_seconds * 1000));
          resolve();
        } else if (m.type === 'script.run') {
          ws.send(JSON.stringify({ type: 'result', id: m.id, ok: true, result: { retcode: 0, stdout: 'ok\n', stderr: '', executionTime: 0.001, timedOut: false } }));
        } else if (m.type === 'session.open') {
          const s = { seq: 0, sent: [], inFlight: 0 };
          sessions.set(m.session, s);
          ws.send(JSON.stringify({ type: 'session.opened', session: m.session, info: { pty: false, shell: 'bench' } }));
          s.timer = setInterval(() => {
            let budget = this.perTick;
            while (budget > 0 && s.inFlight + FRAME_MAX <= WINDOW && ws.readyState === WebSocket.OPEN) {
              const n = Math.min(FRAME_MAX, budget);
              const seq = s.seq++;
              ws.send(frame(m.session, seq, text.subarray(0, n)));
              s.sent.push([seq, n]);
              s.inFlight += n;
              budget -= n;
            }
          }, 100);
          this.timers.push(s.timer);
        } else if (m.type === 'session.ack') {
          const s = sessions.get(m.session);
          if (!s) return;
          while (s.sent.length > 0 && s.sent[0][0] <= m.seq) s.inFlight -= s.sent.shift()[1];
        } else if (m.type === 'session.close') {
          const s = sessions.get(m.session);
          if (s) clearInterval(s.timer);
          sessions.delete(m.session);
        }
      });
    });
  }

  async stop() {
    for (const t of this.timers) clearInterval(t);
    for (const ws of this.sockets) ws.terminate();
  }
}

module.exports = { SessionAgents };
