import { QueueSocket, SendQueue } from './send-queue';

/** A socket that holds what it is sent until `flush()` (as a peer that does not read, then reads). */
class FakeSocket implements QueueSocket {
  open = true;
  sent: string[] = [];
  private held: Array<{ data: Buffer; done: () => void }> = [];
  get bufferedAmount(): number {
    return this.held.reduce((n, h) => n + h.data.length, 0);
  }
  send(data: Buffer, done: () => void): void {
    this.held.push({ data, done });
  }
  /** The peer reads what the socket holds now: each message is written out, and its callback runs. */
  flush(): void {
    for (const { data, done } of this.held.splice(0)) {
      this.sent.push(data.toString());
      done();
    }
  }
}

const msg = (s: string) => Buffer.from(s);

describe('SendQueue (a slow reader’s messages, capped)', () => {
  it('sends nothing before start, then in order, handing the socket one message at a time', () => {
    const socket = new FakeSocket();
    const q = new SendQueue(socket, 1024);
    expect(q.push(msg('a'))).toBe(true);
    expect(q.push(msg('b'))).toBe(true);
    expect(socket.bufferedAmount).toBe(0); // not ready: nothing handed over
    q.start();
    expect(socket.bufferedAmount).toBe(1); // one at a time
    q.push(msg('c'));
    expect(socket.bufferedAmount).toBe(1);
    socket.flush();
    socket.flush();
    socket.flush();
    expect(socket.sent).toEqual(['a', 'b', 'c']);
    expect(q.waiting).toBe(0);
  });

  it('refuses a message once more than the cap waits (queued and held by the socket), and queues nothing then', () => {
    const socket = new FakeSocket();
    const q = new SendQueue(socket, 10);
    q.start();
    expect(q.push(msg('0123456789'))).toBe(true); // handed to the socket: 10 waiting
    expect(q.push(msg('x'))).toBe(true); // 10 is not more than 10
    expect(q.waiting).toBe(11);
    expect(q.push(msg('y'))).toBe(false);
    expect(q.waiting).toBe(11);
    socket.flush();
    socket.flush();
    expect(socket.sent).toEqual(['0123456789', 'x']);
  });

  it('drops what waits when stopped, and sends nothing more', () => {
    const socket = new FakeSocket();
    const q = new SendQueue(socket, 1024);
    q.start();
    for (const s of ['a', 'b', 'c']) q.push(msg(s));
    q.stop();
    expect(q.waiting).toBe(1); // only what the socket already held
    q.push(msg('d'));
    socket.flush();
    expect(socket.sent).toEqual(['a']);
  });

  it('hands nothing to a socket that is no longer open', () => {
    const socket = new FakeSocket();
    socket.open = false;
    const q = new SendQueue(socket, 1024);
    q.start();
    q.push(msg('a'));
    expect(socket.bufferedAmount).toBe(0);
  });

  it('keeps its memory to what waits under a long stream (the sent part of the array is let go)', () => {
    const socket = new FakeSocket();
    const q = new SendQueue(socket, 1 << 30);
    q.start();
    for (let i = 0; i < 10_000; i++) q.push(msg(String(i)));
    for (let i = 0; i < 5_000; i++) socket.flush();
    expect(socket.sent).toHaveLength(5_000);
    expect(q.waiting).toBe(Buffer.byteLength(Array.from({ length: 5_000 }, (_, i) => String(5_000 + i)).join('')));
    for (let i = 0; i < 5_000; i++) socket.flush();
    expect(socket.sent.at(-1)).toBe('9999');
    expect(q.waiting).toBe(0);
  });
});
