/**
 * The codes the server closes an agent's channel with, and what the agent does about each (docs/agent-protocol.md,
 * "Close codes"). The reasons that go with them are the server's (agent-gateway.ts): an agent acts on the code.
 */
export const CLOSE_CODES = {
  /** The server is shutting down: reconnect after a random 1–5 s. */
  shuttingDown: 1001,
  /** Too many invalid messages, too many messages, or not reading: reconnect with the usual back-off. */
  policy: 1008,
  /** A message over 1 MiB (the WebSocket library's own limit). */
  tooBig: 1009,
  /** The server failed handling a message (it logged why). */
  serverError: 1011,
  /** The server is out of room for connections (its open-file head-room): reconnect with the usual back-off. */
  tryAgainLater: 1013,
  /** A newer connection of this agent took over: stop. */
  replaced: 4000,
  /** The agent was re-enrolled: this secret no longer works; stop. */
  reenrolled: 4001,
} as const;
