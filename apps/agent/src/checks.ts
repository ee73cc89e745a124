// The agent's checks: the list the server sent last (checks.sync), each run at once when new or changed, then
// every runInterval seconds (±10 % jitter), never two runs of one check at the same time.
import { CheckOutcome, runCheck } from './check-runners';
import type { CheckDefinition, CheckResultMessage } from '@app/protocol/agent';

interface Entry {
  def: CheckDefinition;
  /** The definition as JSON: a check whose JSON changed is new. */
  key: string;
  timer?: NodeJS.Timeout;
  cancelled: boolean;
}

export interface SchedulerOptions {
  run?: (def: CheckDefinition) => Promise<CheckOutcome>;
  random?: () => number;
  log?: (line: string) => void;
}

/** The delay before the next run: runInterval seconds ±10 %. */
export function nextDelayMs(runIntervalSeconds: number, random: () => number = Math.random): number {
  const seconds = Number.isFinite(runIntervalSeconds) && runIntervalSeconds >= 1 ? runIntervalSeconds : 120;
  return Math.round(seconds * 1000 * (0.9 + 0.2 * random()));
}

/**
 * The definitions of a checks.sync message that can be scheduled (an id and a type at least); others are dropped. The
 * message is valid against its schema by then (handlers/checks-sync.ts): this keeps the scheduler safe whoever calls it.
 */
export function validDefinitions(checks: unknown): CheckDefinition[] {
  if (!Array.isArray(checks)) return [];
  return checks.filter(
    (c): c is CheckDefinition =>
      typeof c === 'object' && c !== null && Number.isInteger((c as CheckDefinition).id) && typeof (c as CheckDefinition).checkType === 'string' && typeof (c as CheckDefinition).settings === 'object',
  );
}

export class CheckScheduler {
  private readonly entries = new Map<number, Entry>();
  /** The run in progress of each check id (a changed check waits for its previous definition's run). */
  private readonly busy = new Map<number, Promise<void>>();
  private readonly run: (def: CheckDefinition) => Promise<CheckOutcome>;
  private readonly random: () => number;
  private readonly log: (line: string) => void;

  constructor(
    /** Sends a result to the server (dropped by the caller when not connected). */
    private readonly send: (result: CheckResultMessage) => void,
    options: SchedulerOptions = {},
  ) {
    this.run = options.run ?? runCheck;
    this.random = options.random ?? Math.random;
    this.log = options.log ?? (() => undefined);
  }

  /** The ids of the checks held now. */
  get ids(): number[] {
    return [...this.entries.keys()];
  }

  /** Takes the server's full list: new and changed checks run at once, removed ones stop, unchanged ones keep their timers. */
  sync(checks: CheckDefinition[]): void {
    const seen = new Set<number>();
    for (const def of checks) {
      if (seen.has(def.id)) continue;
      seen.add(def.id);
      const key = JSON.stringify(def);
      const held = this.entries.get(def.id);
      if (held && held.key === key) continue;
      if (held) this.cancel(held);
      const entry: Entry = { def, key, cancelled: false };
      this.entries.set(def.id, entry);
      this.log(`check ${def.id} (${def.checkType}) ${held ? 'changed' : 'added'}: running it now, then every ${def.runInterval} s`);
      this.start(entry);
    }
    for (const [id, entry] of this.entries) {
      if (seen.has(id)) continue;
      this.cancel(entry);
      this.entries.delete(id);
      this.log(`check ${id} removed`);
    }
  }

  /** Stops every check (disconnected, or stopping): the server sends the list again at the next connect. */
  stopAll(): void {
    for (const entry of this.entries.values()) this.cancel(entry);
    this.entries.clear();
  }

  private cancel(entry: Entry): void {
    entry.cancelled = true;
    clearTimeout(entry.timer);
  }

  private start(entry: Entry): void {
    if (entry.cancelled) return;
    const id = entry.def.id;
    const previous = this.busy.get(id);
    if (previous) {
      void previous.then(() => this.start(entry));
      return;
    }
    const running = this.execute(entry).finally(() => {
      if (this.busy.get(id) === running) this.busy.delete(id);
    });
    this.busy.set(id, running);
  }

  private async execute(entry: Entry): Promise<void> {
    const outcome = await this.run(entry.def);
    if (entry.cancelled) return; // removed or changed meanwhile: this result is of a definition the server no longer has
    this.send({ type: 'check.result', checkId: entry.def.id, status: outcome.status, moreInfo: outcome.moreInfo });
    entry.timer = setTimeout(() => this.start(entry), nextDelayMs(entry.def.runInterval, this.random));
  }
}
