/**
 * The check list each agent connected to this instance was last sent (by its fingerprint,
 * ChecksRepository.toRunOfAgents), per connection: forgotten when a connection starts or ends. The reconcile
 * re-sends the list of every held agent whose list changed since, or that was never sent one on this connection
 * (a lost notify from another instance, a send that failed). Pure: unit-tested in sent-lists.spec.ts.
 */
export class SentLists {
  private readonly sent = new Map<number, string>();

  /** The agent's connection here was sent the list with this fingerprint. */
  record(agentId: number, fingerprint: string): void {
    this.sent.set(agentId, fingerprint);
  }

  /** A connection of the agent started or ended here: what it was sent no longer counts. */
  forget(agentId: number): void {
    this.sent.delete(agentId);
  }

  /**
   * Among the agents held here, those whose list must be sent again: `current` has each one's fingerprint now
   * (absent: no checks, `empty`). An agent never sent a list on its connection is always among them.
   */
  stale(held: Iterable<number>, current: ReadonlyMap<number, string>, empty: string): number[] {
    const out: number[] = [];
    for (const agentId of held) {
      const last = this.sent.get(agentId);
      if (last === undefined || last !== (current.get(agentId) ?? empty)) out.push(agentId);
    }
    return out;
  }
}
