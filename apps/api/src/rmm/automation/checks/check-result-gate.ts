import { createHash } from 'node:crypto';

/** A check's results are accepted at most once per max(run_interval / 2, this) (docs/security.md, N2). */
export const MIN_SPACING_MS = 5_000;
/** Dropped results one agent may send within DROP_WINDOW_MS; one more closes its connection (1008). */
export const MAX_DROPS_PER_MINUTE = 100;
export const DROP_WINDOW_MS = 60_000;

/** What to do with one check.result. */
export type GateVerdict = 'accept' | 'unknown' | 'drop' | 'close';

interface GatedCheck {
  spacingMs: number;
  /** The definition as last sent (a digest): a changed check runs at once on the agent, so its spacing starts over. */
  digest: string;
  /** When a result of it was last accepted (ms, the server's clock). */
  last?: number;
}

interface AgentGate {
  checks: Map<number, GatedCheck>;
  /** The checks of the latest checks.sync sent over the agent's current connection (none until one is sent). */
  given: boolean;
  /** When its results were dropped in the last minute (at most MAX_DROPS_PER_MINUTE + 1). */
  drops: number[];
  /** Drops not yet written to agents.check_results_dropped. */
  unflushed: number;
}

/** The spacing of a check's results: half its run interval, at least MIN_SPACING_MS. */
export const spacingMs = (runIntervalSeconds: number): number => Math.max((runIntervalSeconds * 1000) / 2, MIN_SPACING_MS);

/**
 * The rule of what one agent's check results may cost (docs/security.md, N2), in memory on the instance holding the
 * agent, bounded by its checks: per agent, per check, the spacing and the time of the last accepted result; per
 * agent, the times of its drops of the last minute. A result counts only for a check given to the agent's current
 * connection (ownership before capacity); then at most one per spacing is accepted, the others dropped and counted;
 * the drop that makes more than MAX_DROPS_PER_MINUTE in a minute closes the connection. The times survive a
 * reconnect (a reconnect loop buys nothing) and reset for a check whose definition changed (the agent runs a
 * changed check at once). `spaced: false` (tests that measure something else): every result of a given check is
 * accepted.
 */
export class CheckResultGate {
  private readonly agents = new Map<number, AgentGate>();

  constructor(private readonly spaced = true) {}

  /** The agent's checks.sync went out on its current connection: these are its checks now. */
  synced(agentId: number, checks: ReadonlyArray<{ id: number; runInterval?: unknown }>): void {
    const gate = this.of(agentId);
    const next = new Map<number, GatedCheck>();
    for (const c of checks) {
      const runInterval = typeof c.runInterval === 'number' && Number.isFinite(c.runInterval) ? c.runInterval : 0;
      const digest = createHash('sha1').update(JSON.stringify(c)).digest('base64');
      const before = gate.checks.get(c.id);
      next.set(c.id, { spacingMs: spacingMs(runInterval), digest, last: before?.digest === digest ? before.last : undefined });
    }
    gate.checks = next;
    gate.given = true;
  }

  /** A connection of the agent opened or closed here: nothing is given to it until its next checks.sync. */
  ungiven(agentId: number): void {
    const gate = this.agents.get(agentId);
    if (gate) gate.given = false;
  }

  /** The verdict on one result of `checkId` received at `now` (ms). */
  admit(agentId: number, checkId: number, now: number): GateVerdict {
    const gate = this.agents.get(agentId);
    const check = gate?.given ? gate.checks.get(checkId) : undefined;
    if (!gate || !check) return 'unknown';
    if (!this.spaced || check.last === undefined || now - check.last >= check.spacingMs || now < check.last) {
      check.last = now;
      return 'accept';
    }
    gate.unflushed++;
    const drops = gate.drops;
    while (drops.length > 0 && now - drops[0] >= DROP_WINDOW_MS) drops.shift();
    drops.push(now);
    if (drops.length > MAX_DROPS_PER_MINUTE) {
      drops.length = 0;
      return 'close';
    }
    return 'drop';
  }

  /** The drops counted since the last call, per agent (for agents.check_results_dropped); they are then forgotten. */
  takeDrops(): Map<number, number> {
    const out = new Map<number, number>();
    for (const [agentId, gate] of this.agents) {
      if (gate.unflushed > 0) out.set(agentId, gate.unflushed);
      gate.unflushed = 0;
    }
    return out;
  }

  /** Forgets agents not held here (`held` false) whose every spacing has run out and with no drop left to write. */
  prune(now: number, held: (agentId: number) => boolean): void {
    for (const [agentId, gate] of this.agents) {
      if (held(agentId) || gate.unflushed > 0) continue;
      const waiting = [...gate.checks.values()].some((c) => c.last !== undefined && now - c.last < c.spacingMs);
      if (!waiting && !gate.drops.some((t) => now - t < DROP_WINDOW_MS)) this.agents.delete(agentId);
    }
  }

  /** Agents with state here (tests). */
  size(): number {
    return this.agents.size;
  }

  private of(agentId: number): AgentGate {
    let gate = this.agents.get(agentId);
    if (!gate) {
      gate = { checks: new Map(), given: false, drops: [], unflushed: 0 };
      this.agents.set(agentId, gate);
    }
    return gate;
  }
}
