// What this build of the agent is. The protocol itself (messages, their schemas and types, close codes) is
// libs/protocol, which the server imports too.

import { AGENT_TARGETS } from '@app/protocol/agent';
import type { AgentTarget } from '@app/protocol/agent';

// Set by scripts/build-agent.js (esbuild's and Bun's `define`); absent when the sources run as they are (unit tests).
declare const __RMM_AGENT_VERSION__: string | undefined;
declare const __RMM_AGENT_TARGET__: string | undefined;

/** This build's version (the server's package.json version, or the build's --version). */
export const AGENT_VERSION: string = typeof __RMM_AGENT_VERSION__ === 'string' ? __RMM_AGENT_VERSION__ : '0.1.0';

const BUILT_FOR = typeof __RMM_AGENT_TARGET__ === 'string' ? __RMM_AGENT_TARGET__ : null;

/** The single-file binary target this build is (one of the protocol's AGENT_TARGETS); null for the Node.js bundle. */
export const AGENT_TARGET: AgentTarget | null = AGENT_TARGETS.find((target) => target === BUILT_FOR) ?? null;
