/** The time, as a service: tests replace it to move through expiry without waiting. */
export class Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock that stays where it is told (tests). */
export class FixedClock extends Clock {
  constructor(private current = new Date()) {
    super();
  }
  override now(): Date {
    return new Date(this.current.getTime());
  }
  set(at: Date): void {
    this.current = new Date(at.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
