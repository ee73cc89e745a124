/** Output held before it is appended at once (and the shell's next bytes wait for the append): the memory bound. */
export const RECORDING_HIGH_WATER = 256 * 1024;

/** Appends one chunk of event lines to a session's recording (TerminalRepository.appendChunk). */
export type AppendChunk = (sessionId: string, seq: number, lines: string) => Promise<void>;

/**
 * One session's asciicast v2 recording (docs/terminal.md, "Recording") as it is made: output events
 * `[seconds, "o", text]` and resizes `[seconds, "r", "COLSxROWS"]`, held until the next flush (LiveTerminals' sweep,
 * every 5 s) or RECORDING_HIGH_WATER, then appended as one chunk row. The bytes are decoded as a stream, so a UTF-8
 * character cut between two frames is one character in the recording. A failed append is reported and the
 * recording goes on (a gap, never a stuck terminal).
 */
export class TerminalRecording {
  private lines: string[] = [];
  private size = 0;
  private seq = 0;
  private readonly decoder = new TextDecoder('utf-8');
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessionId: string,
    private readonly startedAt: number,
    private readonly append: AppendChunk,
    private readonly failed: (err: Error) => void,
  ) {}

  /** The shell's bytes; a promise (the append) when the held output reached the high water mark: await it. */
  output(bytes: Uint8Array): Promise<void> | undefined {
    const text = this.decoder.decode(bytes, { stream: true });
    if (text !== '') this.event('o', text);
    return this.size >= RECORDING_HIGH_WATER ? this.flush() : undefined;
  }

  resize(cols: number, rows: number): void {
    this.event('r', `${cols}x${rows}`);
  }

  /** Appends what is held (after any append under way). */
  flush(): Promise<void> {
    if (this.lines.length === 0) return this.writing;
    const lines = this.lines.join('');
    const seq = this.seq++;
    this.lines = [];
    this.size = 0;
    this.writing = this.writing.then(() => this.append(this.sessionId, seq, lines)).catch((err: Error) => this.failed(err));
    return this.writing;
  }

  /** The session ended: the rest of the output (a character left incomplete is dropped), appended. */
  finish(): Promise<void> {
    const rest = this.decoder.decode();
    if (rest !== '') this.event('o', rest);
    return this.flush();
  }

  private event(kind: 'o' | 'r', data: string): void {
    const line = `${JSON.stringify([Number(((Date.now() - this.startedAt) / 1000).toFixed(6)), kind, data])}\n`;
    this.lines.push(line);
    this.size += line.length;
  }
}

/** The asciicast v2 header of a session's recording. */
export function asciicastHeader(s: { cols: number; rows: number; openedAt: Date | null; createdAt: Date; shell: string | null }): string {
  const env: Record<string, string> = { TERM: 'xterm-256color' };
  if (s.shell !== null) env.SHELL = s.shell;
  return `${JSON.stringify({ version: 2, width: s.cols, height: s.rows, timestamp: Math.floor((s.openedAt ?? s.createdAt).getTime() / 1000), env })}\n`;
}
