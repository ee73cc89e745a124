import { randomUUID } from 'node:crypto';
import { decodeSessionFrame, encodeSessionFrame, ReceiveWindow, SendWindow, SESSION_FRAME_MAX, SESSION_HEADER_BYTES, SESSION_WINDOW } from './sessions';

describe('session frames (docs/agent-protocol.md, "Sessions")', () => {
  it('carry the session, the seq and the bytes untouched, and read back the same', () => {
    const session = randomUUID();
    const payload = Uint8Array.from([0xf0, 0x9f, 0x98, 0x80, 0, 255]);
    const bytes = encodeSessionFrame(session, 4_294_967_295, payload);
    expect(bytes.length).toBe(SESSION_HEADER_BYTES + payload.length);
    expect(decodeSessionFrame(bytes)).toEqual({ ok: true, frame: { session, seq: 4_294_967_295, payload } });
  });

  it('refuse what is not a frame, saying why', () => {
    const session = randomUUID();
    expect(decodeSessionFrame(new Uint8Array(21))).toEqual({ ok: false, error: 'binary frame too short: a session frame is a 21-byte header and 1–32768 bytes' });
    const wrongTag = encodeSessionFrame(session, 0, new Uint8Array(1));
    wrongTag[0] = 7;
    expect(decodeSessionFrame(wrongTag)).toEqual({ ok: false, error: 'binary frame with unknown tag 7' });
    expect(decodeSessionFrame(new Uint8Array(SESSION_HEADER_BYTES + SESSION_FRAME_MAX + 1).fill(1))).toEqual({ ok: false, error: 'binary frame over 32768 bytes of payload' });
    expect(() => encodeSessionFrame(session, 0, new Uint8Array(SESSION_FRAME_MAX + 1))).toThrow('a frame carries 1–32768 bytes');
    expect(() => encodeSessionFrame('not-a-uuid', 0, new Uint8Array(1))).toThrow('session id is not a lowercase UUID');
  });
});

describe('session windows', () => {
  it('pause the sender at 256 KiB unacknowledged and free it by cumulative acks', async () => {
    const w = new SendWindow();
    const seqs: number[] = [];
    while (w.open()) seqs.push(w.sent(SESSION_FRAME_MAX));
    expect(seqs).toHaveLength(SESSION_WINDOW / SESSION_FRAME_MAX);
    expect(w.pending).toBe(SESSION_WINDOW);
    let freed = false;
    const room = w.room().then(() => (freed = true));
    await Promise.resolve();
    expect(freed).toBe(false);
    expect(w.acked(999)).toBe(false); // never sent
    expect(w.acked(seqs[2])).toBe(true);
    await room;
    expect(freed).toBe(true);
    expect(w.pending).toBe(SESSION_WINDOW - 3 * SESSION_FRAME_MAX);
  });

  it('hold a frame that would take the sender past the window, so frames of any size never overshoot the receiver', async () => {
    const send = new SendWindow();
    const receive = new ReceiveWindow();
    const first = send.sent(SESSION_WINDOW - 100);
    expect(receive.accept(first, SESSION_WINDOW - 100)).toBeNull();
    expect(send.open(100)).toBe(true);
    expect(send.open(101)).toBe(false);
    let went = false;
    const waiting = send.room(SESSION_FRAME_MAX).then(() => (went = true));
    await Promise.resolve();
    expect(went).toBe(false);
    receive.consumed(SESSION_WINDOW - 100);
    send.acked(first);
    await waiting;
    expect(receive.accept(send.sent(SESSION_FRAME_MAX), SESSION_FRAME_MAX)).toBeNull();
  });

  it('make the receiver refuse frames out of order or past the window', () => {
    const r = new ReceiveWindow();
    expect(r.accept(1, 10)).toBe('frame 1 out of order (expected 0)');
    for (let i = 0; i < 8; i++) expect(r.accept(i, SESSION_FRAME_MAX)).toBeNull();
    expect(r.accept(8, 1)).toBe(`more than ${SESSION_WINDOW} bytes unacknowledged`);
    r.consumed(SESSION_FRAME_MAX);
    expect(r.accept(8, 1)).toBeNull();
  });
});
