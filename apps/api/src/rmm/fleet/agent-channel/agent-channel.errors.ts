/** What talking to an agent can fail with (rmm-error.surface.ts gives each its status). */
export enum AgentsErrorCode {
  /** No channel to the agent is open now. */
  NotConnected = 'agent_not_connected',
  /** The channel closed before the agent answered. */
  Disconnected = 'agent_disconnected',
  /** The agent did not answer within the time limit. */
  NoAnswer = 'agent_no_answer',
  /** The agent answered that it would not or could not do it (`ok: false`, with its reason). */
  Refused = 'agent_refused',
  /** The agent's answer is not one the protocol allows (its `fields` say what was wrong). */
  InvalidAnswer = 'agent_invalid_answer',
}
