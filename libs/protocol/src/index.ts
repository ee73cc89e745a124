// The agent protocol, for both ends (the server: apps/api/src/rmm/fleet/agent-channel/agent-protocol.ts; the agent):
// constants, close codes, the messages' schemas and their types, and how they are checked.
export * from './close-codes';
export * from './constants';
export * from './messages';
export * from './validation';
