// What one kind of session does on the agent (terminal, file.read, file.write): the session manager (manager.ts)
// holds the protocol (frames, windows, acks, close) and hands each kind its bytes and controls through this.

/** The session's way back to the server. */
export interface SessionIo {
  /** Sends bytes to the server (cut into frames, held to the window): resolves when they may be followed by more. Rejects once the session ended. */
  write(bytes: Uint8Array): Promise<void>;
  /** Tells the server what the agent knows of the session (session.opened): once, before the first write. */
  opened(info: Record<string, unknown>): void;
  /**
   * Ends the session from the agent's side after everything written (session.close): `exit` with the shell's
   * code, `end` when every byte was sent, or why it failed (with error: true). The kind's close() is not called after.
   */
  end(reason: string, extra?: { code?: number | null; error?: boolean; received?: number }): void;
  /** A line for the agent's log (never the session's bytes). */
  log(line: string): void;
}

/** A session of one kind, once opened. */
export interface SessionHandler {
  /** Bytes from the server, in order; the next waits until this resolves (then they are acknowledged). */
  data?(bytes: Uint8Array): void | Promise<void>;
  /** A control message of the kind (terminal: {type: "resize", cols, rows}). */
  control?(control: Record<string, unknown>): void;
  /**
   * The server ended the session (`reason`: `end` after every byte for file.write, else `closed`, `idle`, …) or the
   * connection dropped (`disconnected`). Release everything (a terminal: kill the shell's whole process group
   * within 5 s). What it resolves to goes back in the agent's session.close (file.write: {received}).
   */
  close(reason: string): Promise<{ received?: number } | void> | { received?: number } | void;
}

/** Opens a session of the kind with the server's params; throws (or rejects) with the reason the server is told. */
export type SessionOpener = (params: Record<string, unknown>, io: SessionIo) => SessionHandler | Promise<SessionHandler>;
