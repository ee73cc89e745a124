import { Injectable } from '@nestjs/common';

/**
 * Which agents hold an open channel to this server. The agent channel (WebSocket /rmm/{agent_id}/, a later
 * issue) registers connections here; until it exists no agent is connected, and runscript answers 409.
 */
@Injectable()
export class AgentConnections {
  private readonly connected = new Set<number>();

  isConnected(agentId: number): boolean {
    return this.connected.has(agentId);
  }
}
