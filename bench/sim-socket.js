'use strict';
/**
 * The simulator's WebSocket client: RFC 6455 over one `net` socket, as much of it as an agent uses (text
 * messages, ping → pong, close), with the events and methods of `ws` that bench/sim.js uses ('message', 'close',
 * 'error', 'unexpected-response'; send, close, terminate, readyState).
 *
 * Why not `ws` here: the simulator shares this machine's two cores with the server under test. Profiled in a
 * 19,900-agent reconnect storm (bench/storm.js), the `ws` client (an http.ClientRequest, an HTTP parser and a
 * random key and SHA-1 per connect) cost the three simulator processes more CPU than the server spent greeting
 * the agents, and that CPU was taken from the server. The bytes on the wire are the same: the server sees an
 * ordinary upgrade and masked client frames (RFC 6455 §5.3; the mask is all zeros, which the protocol allows
 * and which makes masking free). Everything the server sends is parsed: a text frame, a ping (answered), a
 * close (its code; answered), and any malformed frame closes the socket as 1002.
 */
const { createHash, randomBytes } = require('node:crypto');
const { EventEmitter } = require('node:events');
const net = require('node:net');

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** One key for every connection of this process (a server cannot tell), so the accept value is computed once. */
const KEY = randomBytes(16).toString('base64');
const ACCEPT = createHash('sha1').update(KEY + GUID).digest('base64');
const ZERO_MASK = Buffer.alloc(4);

class SimSocket extends EventEmitter {
  /**
   * @param {string} url ws://host:port/path
   * @param {{ headers?: Record<string, string>, localAddress?: string, handshakeTimeout?: number }} options
   */
  constructor(url, options = {}) {
    super();
    const u = new URL(url);
    this.readyState = CONNECTING;
    this.closeCode = 1006;
    this.buffer = null;
    const head = [`GET ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Key: ${KEY}`, 'Sec-WebSocket-Version: 13'];
    for (const [k, v] of Object.entries(options.headers ?? {})) head.push(`${k}: ${v}`);
    this.socket = net.connect({ host: u.hostname, port: Number(u.port), localAddress: options.localAddress, noDelay: true });
    this.socket.setTimeout(options.handshakeTimeout ?? 30_000);
    this.socket.once('timeout', () => this.fail(Object.assign(new Error('Opening handshake has timed out'), { code: 'ETIMEDOUT' })));
    this.socket.once('connect', () => this.socket.write(head.join('\r\n') + '\r\n\r\n'));
    this.socket.on('data', (chunk) => this.onData(chunk));
    this.socket.once('error', (err) => this.fail(err));
    this.socket.once('close', () => this.onClose());
  }

  get bufferedAmount() {
    return this.socket.writableLength;
  }

  send(text) {
    if (this.readyState !== OPEN) return;
    this.socket.write(frame(0x1, Buffer.from(text)));
  }

  close(code = 1000) {
    if (this.readyState !== OPEN) return this.terminate();
    this.readyState = CLOSING;
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    this.socket.end(frame(0x8, payload));
  }

  terminate() {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSING;
    this.socket.destroy();
  }

  fail(err) {
    if (this.failed) return;
    this.failed = true;
    if (this.readyState === CONNECTING) this.emit('error', err);
    this.socket.destroy();
  }

  onClose() {
    this.readyState = CLOSED;
    this.emit('close', this.closeCode);
  }

  onData(chunk) {
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    if (this.readyState === CONNECTING) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buffer.subarray(0, end).toString('latin1');
      this.buffer = this.buffer.subarray(end + 4);
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      if (status !== 101) {
        this.readyState = CLOSING;
        this.emit('unexpected-response', null, { statusCode: status, resume: () => undefined });
        return this.socket.destroy();
      }
      if (!new RegExp(`^sec-websocket-accept: ${ACCEPT.replace(/[+/=]/g, '\\$&')}\\s*$`, 'mi').test(head)) {
        return this.fail(Object.assign(new Error('Invalid Sec-WebSocket-Accept header'), { code: 'EPROTO' }));
      }
      this.socket.setTimeout(0);
      this.readyState = OPEN;
      this.emit('open');
    }
    this.readFrames();
  }

  readFrames() {
    while (this.buffer && this.buffer.length >= 2) {
      const b = this.buffer;
      const fin = (b[0] & 0x80) !== 0;
      const opcode = b[0] & 0x0f;
      if ((b[1] & 0x80) !== 0 || !fin) return this.protocolError(); // a server's frames are unmasked; the server does not fragment
      let length = b[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (b.length < 4) return;
        length = b.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (b.length < 10) return;
        length = Number(b.readBigUInt64BE(2));
        offset = 10;
      }
      if (b.length < offset + length) return;
      const payload = b.subarray(offset, offset + length);
      this.buffer = b.length === offset + length ? null : b.subarray(offset + length);
      if (opcode === 0x1) this.emit('message', payload, false);
      else if (opcode === 0x2) this.emit('message', payload, true);
      else if (opcode === 0x9) this.socket.write(frame(0xa, payload));
      else if (opcode === 0x8) {
        this.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        if (this.readyState === OPEN) {
          this.readyState = CLOSING;
          this.socket.end(frame(0x8, payload.subarray(0, 2)));
        }
        this.buffer = null;
        return;
      } else if (opcode !== 0xa) return this.protocolError();
    }
  }

  protocolError() {
    this.closeCode = 1002;
    this.buffer = null;
    this.socket.destroy();
  }
}

/** A masked client frame (FIN set) with the zero mask: the payload goes out as it is. */
function frame(opcode, payload) {
  const n = payload.length;
  const head = n < 126 ? Buffer.allocUnsafe(2) : n < 65_536 ? Buffer.allocUnsafe(4) : Buffer.allocUnsafe(10);
  head[0] = 0x80 | opcode;
  if (n < 126) head[1] = 0x80 | n;
  else if (n < 65_536) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(n, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, ZERO_MASK, payload]);
}

SimSocket.CONNECTING = CONNECTING;
SimSocket.OPEN = OPEN;
SimSocket.CLOSING = CLOSING;
SimSocket.CLOSED = CLOSED;

module.exports = { SimSocket };
