/** What opening or ending a terminal can be refused with (rmm-error.surface.ts gives each its status). */
export enum TerminalErrorCode {
  /** The agent has 3 sessions counting, or the caller 10 (docs/terminal.md, "Limits"). */
  TooMany = 'terminal_too_many',
  /** DELETE of a session that has ended already. */
  Ended = 'terminal_ended',
}
