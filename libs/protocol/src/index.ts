// The agent protocol, for both ends (the server: apps/api/src/rmm/fleet/agent-channel/agent-protocol.ts; the agent:
// apps/agent/src/inbound.ts and handlers/): constants, close codes, the messages' schemas and their types, how they
// are checked, and how each end logs what the other refused.
export * from './close-codes';
export * from './constants';
export * from './log-budget';
export * from './messages';
export * from './validation';
