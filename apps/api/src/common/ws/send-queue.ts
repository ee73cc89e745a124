/** What a SendQueue needs of a socket (a `ws` WebSocket in the server; a plain object in the unit tests). */
export interface QueueSocket {
  /** Bytes the socket holds that it has not sent yet. */
  readonly bufferedAmount: number;
  /** Whether it can still send. */
  readonly open: boolean;
  /** Sends one message; `done` is called once it is written out (then the queue hands it the next). */
  send(data: Buffer, done: () => void): void;
}

const EMPTY = Buffer.alloc(0);

/**
 * Messages waiting for one slow reader, oldest first, with a cap on what may wait. The socket is handed one message
 * at a time, when it has sent everything before (so it holds at most one it cannot send), and nothing before the
 * queue is `ready` (the reader's greeting is out). A message that would find more than `maxBytes` waiting (queued
 * here or in the socket) is refused: the caller closes the reader. The same Buffer may sit in many queues (one
 * encoding for every subscriber of an agent), so what many slow readers wait for is held once.
 */
export class SendQueue {
  private queue: Buffer[] = [];
  private head = 0;
  private queuedBytes = 0;
  private ready = false;
  private stopped = false;
  /** Hands the socket the next waiting messages (called again each time the socket has sent one). */
  readonly pump = (): void => {
    const { socket } = this;
    while (this.ready && !this.stopped && this.head < this.queue.length && socket.open && socket.bufferedAmount === 0) {
      const data = this.queue[this.head];
      this.queue[this.head++] = EMPTY;
      this.queuedBytes -= data.length;
      socket.send(data, this.pump);
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  };

  constructor(
    private readonly socket: QueueSocket,
    private readonly maxBytes: number,
  ) {}

  /** What waits to be sent: queued here, and held by the socket. */
  get waiting(): number {
    return this.queuedBytes + this.socket.bufferedAmount;
  }

  /** Queues a message; false (nothing queued) when more than `maxBytes` already waits. */
  push(data: Buffer): boolean {
    if (this.stopped) return true; // (a stopped queue takes nothing: the reader is going)
    if (this.waiting > this.maxBytes) return false;
    this.queue.push(data);
    this.queuedBytes += data.length;
    this.pump();
    return true;
  }

  /** From now on, waiting messages go out (the reader was greeted). */
  start(): void {
    this.ready = true;
    this.pump();
  }

  /** Nothing more goes out, and what was waiting is dropped at once. */
  stop(): void {
    this.stopped = true;
    this.queue = [];
    this.head = 0;
    this.queuedBytes = 0;
  }
}
