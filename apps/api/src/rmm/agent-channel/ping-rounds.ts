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
  private readonly slots: Array<Set<T>>;
  private readonly slotOf = new Map<T, number>();
  private readonly waiting = new Set<T>();
  private next = 0;
  private tick = 0;

  constructor(readonly slices: number) {
    this.slots = Array.from({ length: slices }, () => new Set<T>());
  }

  /** A new connection: it joins the next slot (its first ping comes within one round). */
  add(conn: T): void {
    if (this.slotOf.has(conn)) return;
    const slot = this.next;
    this.next = (this.next + 1) % this.slices;
    this.slots[slot].add(conn);
    this.slotOf.set(conn, slot);
  }

  /** A connection that closed. */
  remove(conn: T): void {
    const slot = this.slotOf.get(conn);
    if (slot === undefined) return;
    this.slots[slot].delete(conn);
    this.slotOf.delete(conn);
    this.waiting.delete(conn);
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
    return this.slotOf.size;
  }
}
