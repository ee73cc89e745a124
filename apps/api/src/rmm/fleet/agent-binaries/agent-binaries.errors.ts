/** What the agent binaries' download refuses (rmm-error.surface.ts gives each its status). */
export enum AgentBinariesErrorCode {
  /** No binary target of that name (the body lists the targets there are). */
  UnknownTarget = 'agent_unknown_target',
}
