/**
 * The agent channel's ping schedule, kept apart from the sockets so it can be tested without timers.
 *
 * Every connection is given one of `slices` slots when it joins (round-robin), and each tick of the interval
 * (every `roundMs / slices`) visits one slot: so every connection is visited once per round, always at the same
 * offset, and 20,000 connections are pinged a slice at a time rather than all at once (which stalled the event
 * loop for hundreds of milliseconds every round). At its visit a connection is pinged, unless the ping of its
 * previous visit is still unanswered: then it is dropped. A connection that stops answering (a frozen or vanished
 * agent) is thus dropped between one and two rounds after its last answer: 30 to 60 s with the 30 s round.
 */
export class PingRounds<T> {
  // (No map from a connection to its slot: at 20,000 connections each entry is memory, and finding a closing
  // connection's slot costs at most `slices` set lookups.)
  private readonly slots: Array<Set<T>>;
  private readonly waiting = new Set<T>();
  private count = 0;
  private next = 0;
  private tick = 0;

  constructor(readonly slices: number) {
    this.slots = Array.from({ length: slices }, () => new Set<T>());
  }

  /** A new connection: it joins the next slot (its first ping comes within one round). */
  add(conn: T): void {
    if (this.slots.some((slot) => slot.has(conn))) return;
    this.slots[this.next].add(conn);
    this.next = (this.next + 1) % this.slices;
    this.count++;
  }

  /** A connection that closed. */
  remove(conn: T): void {
    this.waiting.delete(conn);
    for (const slot of this.slots) {
      if (slot.delete(conn)) {
        this.count--;
        return;
      }
    }
  }

  /** Its pong came. */
  answered(conn: T): void {
    this.waiting.delete(conn);
  }

  /** One tick: the connections of this tick's slot to ping now, and those to drop (their last ping is unanswered). */
  visit(): { ping: T[]; drop: T[] } {
    const ping: T[] = [];
    const drop: T[] = [];
    for (const conn of this.slots[this.tick]) {
      if (this.waiting.has(conn)) drop.push(conn);
      else {
        this.waiting.add(conn);
        ping.push(conn);
      }
    }
    for (const conn of drop) this.remove(conn);
    this.tick = (this.tick + 1) % this.slices;
    return { ping, drop };
  }

  get size(): number {
    return this.count;
  }
}
