// What the agent imports of the protocol (`@app/protocol/agent`): the values it runs with (constants, close codes,
// the log budget, the frame parser and the validators generated ahead of time from the schemas) and the
// schemas' types, but not the schemas themselves nor Ajv's compiler: TypeBox and Ajv would cost every device
// 8–12 MB of memory (docs/performance.md, "The protocol's schemas in the agent"). scripts/build-agent.js
// refuses a bundle they reach.
export * from './close-codes';
export * from './constants';
export * from './frames';
export * from './generated/agent-validators';
export * from './log-budget';
export type * from './messages';
export * from './sessions';
