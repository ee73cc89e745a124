/** What talking to an agent can fail with (rmm-error.surface.ts gives each its status). */
export enum AgentsErrorCode {
  /** No channel to the agent is open now. */
  NotConnected = 'agent_not_connected',
  /** The channel closed before the agent answered. */
  Disconnected = 'agent_disconnected',
  /** The agent did not answer within the time limit. */
  NoAnswer = 'agent_no_answer',
}
