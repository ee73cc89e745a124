// The agent protocol, for both ends (the server: apps/api/src/rmm/fleet/agent-channel/agent-protocol.ts; the agent:
// apps/agent/src/inbound.ts and handlers/, through `@app/protocol/agent`, which leaves out the schemas' values and
// Ajv's compiler): constants, close codes, the messages' schemas and their types, how they are checked (compiled
// by Ajv, or generated ahead of time for the agent: generated/agent-validators.ts), and how each end logs what
// the other refused.
export * from './close-codes';
export * from './constants';
export * from './frames';
export * from './generated/agent-validators';
export * from './log-budget';
export * from './messages';
export * from './validation';
export * from './sessions';
