import { BatchLoader } from './batch-loader';

/** Agents whose client the fleet WebSocket remembers (20,000 fit many times over: an entry is two numbers). */
export const MAX_REMEMBERED_AGENTS = 200_000;
/** Agents whose client one query reads. */
const LOOKUP_BATCH = 1_000;

/**
 * Which client each agent belongs to, for the fleet WebSocket's filter (a subscriber limited to some clients hears
 * only their agents). An agent's client never changes (agents are one row per client and hostname; a device moved
 * to another client enrolls as a new agent, with a new id), so what is learnt stays true: from agent.updated's read
 * of the agent, from the per-agent WebSocket's admission, else from one batched indexed lookup per unknown agent
 * (BatchLoader), so that 20,000 agents coming online cost a few queries once, then none. Bounded: past
 * MAX_REMEMBERED_AGENTS the oldest entries are forgotten (and looked up again if they come back).
 */
export class AgentClients {
  private readonly known = new Map<number, number | null>();
  private readonly loader: BatchLoader<number, number | null>;

  constructor(
    read: (agentIds: number[]) => Promise<Map<number, number | null>>,
    private readonly max = MAX_REMEMBERED_AGENTS,
  ) {
    this.loader = new BatchLoader(read, LOOKUP_BATCH);
  }

  /** The agent's client if known here (null: an agent without a client); undefined when not known. */
  peek(agentId: number): number | null | undefined {
    return this.known.get(agentId);
  }

  remember(agentId: number, clientId: number | null): void {
    if (this.known.has(agentId)) return void this.known.set(agentId, clientId);
    this.known.set(agentId, clientId);
    if (this.known.size > this.max) this.known.delete(this.known.keys().next().value!);
  }

  /** The agent's client, read when not known (undefined: no such agent, e.g. deleted; not remembered). */
  async of(agentId: number): Promise<number | null | undefined> {
    const known = this.peek(agentId);
    if (known !== undefined) return known;
    const read = await this.loader.load(agentId);
    if (read !== undefined) this.remember(agentId, read);
    return read;
  }

  get size(): number {
    return this.known.size;
  }
}
