// Sessions (docs/agent-protocol.md, "Sessions"): an ordered, two-way, flow-controlled byte stream between the server
// and an agent on the agent's channel, that the terminal and file transfers ride on. Control messages are JSON
// (session.open, session.opened, session.ack, session.control, session.close: messages.ts); bytes go in binary
// frames of this layout. Plain data and functions with no import: the agent carries this file.

/** The kinds of session an agent opens (`session.open`'s `kind`). */
export const SESSION_KINDS = ['terminal', 'file.read', 'file.write'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** The most payload one binary frame carries. */
export const SESSION_FRAME_MAX = 32 * 1024;
/** The most bytes a sender may have sent and not yet seen acknowledged, per session and direction: then it pauses. */
export const SESSION_WINDOW = 256 * 1024;
/**
 * A receiver acknowledges once this much was consumed since its last ack, and when it has nothing more to consume (on
 * the next turn of its event loop, so the frames of one read share an ack): a quarter of the window, which keeps the
 * sender going while costing one message per 64 KiB rather than one per frame.
 */
export const SESSION_ACK_EVERY = 64 * 1024;
/** Binary frame: 1 byte tag (SESSION_DATA_TAG), 16 bytes session id (a UUID's bytes), 4 bytes seq (uint32, big-endian), payload. */
export const SESSION_HEADER_BYTES = 21;
export const SESSION_DATA_TAG = 0x01;
/** The longest close reason (`session.close`'s `reason`). */
export const SESSION_REASON_MAX = 1_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const SESSION_ID_PATTERN = UUID.source;

/** One binary frame of a session's bytes. */
export interface SessionFrame {
  session: string;
  seq: number;
  payload: Uint8Array;
}

/** The frame's bytes: header and payload (at most SESSION_FRAME_MAX; the caller cuts larger writes). */
export function encodeSessionFrame(session: string, seq: number, payload: Uint8Array): Uint8Array {
  if (!UUID.test(session)) throw new Error('session id is not a lowercase UUID');
  if (payload.length === 0 || payload.length > SESSION_FRAME_MAX) throw new Error(`a frame carries 1–${SESSION_FRAME_MAX} bytes`);
  const out = new Uint8Array(SESSION_HEADER_BYTES + payload.length);
  out[0] = SESSION_DATA_TAG;
  const hex = session.replace(/-/g, '');
  for (let i = 0; i < 16; i++) out[1 + i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  new DataView(out.buffer, out.byteOffset, out.byteLength).setUint32(17, seq >>> 0, false);
  out.set(payload, SESSION_HEADER_BYTES);
  return out;
}

/** A binary frame read back; or why it is not one of the protocol's. */
export function decodeSessionFrame(bytes: Uint8Array): { ok: true; frame: SessionFrame } | { ok: false; error: string } {
  if (bytes.length <= SESSION_HEADER_BYTES) return { ok: false, error: 'binary frame too short: a session frame is a 21-byte header and 1–32768 bytes' };
  if (bytes[0] !== SESSION_DATA_TAG) return { ok: false, error: `binary frame with unknown tag ${bytes[0]}` };
  if (bytes.length > SESSION_HEADER_BYTES + SESSION_FRAME_MAX) return { ok: false, error: `binary frame over ${SESSION_FRAME_MAX} bytes of payload` };
  let hex = '';
  for (let i = 1; i <= 16; i++) hex += bytes[i].toString(16).padStart(2, '0');
  const session = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const seq = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(17, false);
  return { ok: true, frame: { session, seq, payload: bytes.subarray(SESSION_HEADER_BYTES) } };
}

/**
 * One direction's window, at the sender: bytes sent and not yet acknowledged, by seq. `send` is allowed while
 * `open()`; `acked(seq)` frees every frame up to seq (cumulative).
 */
export class SendWindow {
  private nextSeq = 0;
  private unacked: Array<{ seq: number; bytes: number }> = [];
  private inFlight = 0;
  private waiters: Array<{ bytes: number; resolve: () => void }> = [];

  constructor(private readonly size = SESSION_WINDOW) {}

  /** Bytes sent and not acknowledged. */
  get pending(): number {
    return this.inFlight;
  }

  /**
   * True while a frame of `bytes` may go: with it, no more than the window is in flight (a frame that does not end on
   * a 32 KiB boundary would otherwise overshoot the receiver's window, which refuses it).
   */
  open(bytes = 1): boolean {
    return this.inFlight + Math.min(bytes, this.size) <= this.size;
  }

  /** Records a frame of `bytes` as sent; returns its seq. */
  sent(bytes: number): number {
    const seq = this.nextSeq;
    this.nextSeq = (this.nextSeq + 1) >>> 0;
    this.unacked.push({ seq, bytes });
    this.inFlight += bytes;
    return seq;
  }

  /** The receiver consumed every frame up to `seq`: false when it acknowledges a seq never sent (a protocol error). */
  acked(seq: number): boolean {
    const i = this.unacked.findIndex((f) => f.seq === seq);
    if (i < 0) return false;
    for (const f of this.unacked.splice(0, i + 1)) this.inFlight -= f.bytes;
    const waiting = this.waiters.splice(0);
    for (const w of waiting) {
      if (this.open(w.bytes)) w.resolve();
      else this.waiters.push(w);
    }
    return true;
  }

  /** Resolves when a frame of `bytes` may go (at once when open). */
  room(bytes = 1): Promise<void> {
    return this.open(bytes) ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ bytes, resolve }));
  }

  /** Ends every wait (the session closed): the writers see the close by their own means. */
  release(): void {
    for (const w of this.waiters.splice(0)) w.resolve();
  }
}

/**
 * A receiver's acknowledgements (SESSION_ACK_EVERY): `consumed` after each frame is consumed; the ack of the last
 * one goes once 64 KiB were consumed since the previous ack, or on the next turn when nothing more is queued. `send`
 * writes it (and skips it once the session ended). Both ends use it.
 */
export class AckBatcher {
  private seq: number | null = null;
  private bytes = 0;
  private timer?: ReturnType<typeof setImmediate>;

  constructor(private readonly send: (seq: number) => void) {}

  /** Frame `seq` of `bytes` was consumed; `more`: other frames wait to be consumed. */
  consumed(seq: number, bytes: number, more: boolean): void {
    this.seq = seq;
    this.bytes += bytes;
    if (this.bytes >= SESSION_ACK_EVERY) this.flush();
    else if (!more) this.timer ??= setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    const seq = this.seq;
    this.seq = null;
    this.bytes = 0;
    if (seq !== null) this.send(seq);
  }
}

/**
 * One direction's window, at the receiver: what the sender may have in flight. A frame out of order or past the
 * window is a protocol error (the session is closed with reason `protocol`).
 */
export class ReceiveWindow {
  private expected = 0;
  private unacked = 0;

  constructor(private readonly size = SESSION_WINDOW) {}

  /** A frame arrived: null when it is acceptable, else why not. */
  accept(seq: number, bytes: number): string | null {
    if (seq !== this.expected) return `frame ${seq} out of order (expected ${this.expected})`;
    if (this.unacked + bytes > this.size) return `more than ${this.size} bytes unacknowledged`;
    this.expected = (this.expected + 1) >>> 0;
    this.unacked += bytes;
    return null;
  }

  /** The receiver consumed the frame `seq` of `bytes` (call in order): the ack to send. */
  consumed(bytes: number): void {
    this.unacked -= bytes;
  }
}
