import { asciicastHeader, RECORDING_HIGH_WATER, TerminalRecording } from './terminal-recording';

describe('TerminalRecording', () => {
  it('joins a UTF-8 character cut between two frames, records resizes, and appends in order at flush and finish', async () => {
    const chunks: Array<[number, string]> = [];
    const rec = new TerminalRecording('s1', Date.now(), async (_id, seq, lines) => void chunks.push([seq, lines]), (err) => {
      throw err;
    });
    const smile = Buffer.from('😀', 'utf8');
    expect(rec.output(Buffer.concat([Buffer.from('a'), smile.subarray(0, 2)]))).toBeUndefined();
    void rec.output(Buffer.concat([smile.subarray(2), Buffer.from('b')]));
    rec.resize(120, 50);
    await rec.flush();
    void rec.output(Buffer.from('end'));
    await rec.finish();
    expect(chunks.map(([seq]) => seq)).toEqual([0, 1]);
    const events = chunks.flatMap(([, lines]) => lines.trim().split('\n').map((l) => JSON.parse(l) as [number, string, string]));
    expect(events.map(([, kind, data]) => [kind, data])).toEqual([
      ['o', 'a'],
      ['o', '😀b'],
      ['r', '120x50'],
      ['o', 'end'],
    ]);
  });

  it('appends at once past the high water mark (the shell waits for it)', async () => {
    const chunks: string[] = [];
    const rec = new TerminalRecording('s1', Date.now(), async (_id, _seq, lines) => void chunks.push(lines), () => undefined);
    const wait = rec.output(Buffer.alloc(RECORDING_HIGH_WATER, 0x41));
    expect(wait).toBeInstanceOf(Promise);
    await wait;
    expect(chunks).toHaveLength(1);
  });

  it('writes the asciicast v2 header from the session', () => {
    const at = new Date('2026-12-07T10:00:00Z');
    expect(JSON.parse(asciicastHeader({ cols: 80, rows: 24, openedAt: at, createdAt: at, shell: '/bin/zsh' }))).toEqual({
      version: 2,
      width: 80,
      height: 24,
      timestamp: at.getTime() / 1000,
      env: { TERM: 'xterm-256color', SHELL: '/bin/zsh' },
    });
  });
});
