import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../utils/processes';

/**
 * Issue 32: the terminal session on a real pseudo-terminal, as the single-file agent runs it: openTerminal
 * (apps/agent/src/sessions/terminal.ts) run by the Bun that builds the agent binaries, driven by a small entry
 * written here, which prints what it saw as one JSON line. On pipes under Node: test/medium/agent/terminal.medium-spec.ts.
 */
const BUN = join(ROOT, 'node_modules/@oven/bun-linux-x64-baseline/bin/bun');
const TERMINAL = join(ROOT, 'apps/agent/src/sessions/terminal.ts');

// The entry: each scenario with an io that records the bytes (as the session manager's would send them).
const DRIVER = `
import { execFileSync } from 'node:child_process';
import { openTerminal } from ${JSON.stringify(TERMINAL)};

function recorder() {
  const chunks = [];
  const rec = {
    chunks, opened: undefined, ended: undefined, logs: [], held: undefined,
    bytes: () => Buffer.concat(chunks),
    text: () => Buffer.concat(chunks).toString('latin1'),
    write(b) { chunks.push(Buffer.from(b)); return rec.held ? new Promise((r) => rec.held.push(r)) : Promise.resolve(); },
    opened(info) { rec.opened = info; },
    end(reason, extra) { rec.ended = { reason, extra }; },
    log(line) { rec.logs.push(line); },
  };
  return rec;
}
async function until(what, probe, ms = 15000) {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('no ' + what + ' within ' + ms + ' ms');
    await Bun.sleep(20);
  }
}
const type = (h, s) => h.data(Buffer.from(s));
const state = (pid) => { try { return execFileSync('ps', ['-o', 'stat=', '-p', String(pid)]).toString().trim(); } catch { return 'gone'; } };
const out = {};

// 1. size, resize, bytes, process group
{
  const io = recorder();
  const h = await openTerminal({ cols: 80, rows: 24, shell: 'bash' }, io);
  out.opened = io.opened;
  await type(h, 'stty size; echo MARK1\\n');
  await until('the first size', () => /\\d+ \\d+\\r\\nMARK1/.test(io.text()));
  out.sizeBefore = /(\\d+ \\d+)\\r\\nMARK1/.exec(io.text())[1];
  h.control({ type: 'resize', cols: 120, rows: 50 });
  h.control({ type: 'resize', cols: 0, rows: 50 });
  await type(h, 'stty size; echo MARK2\\n');
  await until('the second size', () => /\\d+ \\d+\\r\\nMARK2/.test(io.text()));
  out.sizeAfter = /(\\d+ \\d+)\\r\\nMARK2/.exec(io.text())[1];
  out.logs = io.logs;
  await type(h, "printf 'A\\\\xf0\\\\x9f\\\\x98\\\\x80Z\\\\n'\\n");
  await until('the emoji', () => io.text().includes('A\\xf0\\x9f\\x98\\x80Z'));
  out.emoji = true;
  await type(h, 'sleep 300 & echo "bg:$!"\\n');
  await until('the job', () => /bg:(\\d+)/.test(io.text()));
  const job = Number(/bg:(\\d+)/.exec(io.text())[1]);
  const ids = (pid) => execFileSync('ps', ['-o', 'pid=,pgid=,sid=', '-p', String(pid)]).toString().trim().split(/\\s+/).map(Number);
  out.shellIds = ids(io.opened.pid);
  out.jobIds = ids(job);
  const t0 = Date.now();
  await h.close('closed');
  out.closeMs = Date.now() - t0;
  out.after = { shell: state(io.opened.pid), job: state(job) };
}

// 2. exit
{
  const io = recorder();
  const h = await openTerminal({ cols: 80, rows: 24 }, io);
  await type(h, 'echo bye; exit 5\\n');
  await until('the end', () => io.ended !== undefined);
  out.exit = io.ended;
  // (a login shell says logout)
  out.exitOutputEndsWithBye = /bye\\r\\n(logout\\r\\n)?$/.test(io.text());
}

// 3. a flood while the server does not take the output: the shell is stopped (XOFF), then nothing is lost. (About
// 6.9 MB, under the agent's 16 MiB overflow: at 2 MB a loaded machine could print it all before the XOFF went.)
// A second attempt when the first flood finished anyway: on a machine loaded by other test files the agent may be
// descheduled long enough for the whole flood to pass before its XOFF; XOFF must then hold in the second one.
for (let attempt = 1; attempt <= 2; attempt++) {
  const io = recorder();
  io.held = [];
  const marker = ${JSON.stringify(join(tmpdir(), `rmm-pty-flood-${process.pid}`))} + '-' + attempt;
  const h = await openTerminal({ cols: 80, rows: 24, shell: '/bin/sh' }, io);
  await type(h, 'stty -echo; seq 1 1000000; echo done > ' + marker + '; exit 0\\n');
  await until('a first write', () => io.chunks.length > 0);
  await Bun.sleep(1500);
  out.floodFinishedWhileHeld = await Bun.file(marker).exists();
  out.floodAttempts = attempt;
  while (!io.ended) {
    const held = io.held; io.held = []; held.forEach((r) => r());
    await Bun.sleep(2);
  }
  const text = io.text().replace(/\\r\\n/g, '\\n');
  const expected = Array.from({ length: 1000000 }, (_, i) => String(i + 1) + '\\n').join('');
  out.floodIntact = text.includes(expected);
  out.floodEnd = io.ended;
  await Bun.file(marker).delete().catch(() => undefined);
  if (!out.floodFinishedWhileHeld) break;
}
console.log('RESULT ' + JSON.stringify(out));
process.exit(0);
`;

const describeIfBun = existsSync(BUN) ? describe : describe.skip;
if (!existsSync(BUN)) process.stdout.write(`terminal-pty: skipped, no Bun at ${BUN} (npm ci installs it on linux-x64)\n`);

describeIfBun('the terminal session on a pseudo-terminal (Bun)', () => {
  let dir: string;
  let result: Record<string, any>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rmm-pty-'));
    const entry = join(dir, 'driver.ts');
    writeFileSync(entry, DRIVER);
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(BUN, ['run', entry], { cwd: dir, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (err, out, errOut) =>
        err ? reject(new Error(`${err.message}\n${out}\n${errOut}`)) : resolve(out),
      ),
    );
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`the driver printed no result:\n${stdout}`);
    result = JSON.parse(line.slice('RESULT '.length));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts the shell on a terminal, as a session leader', () => {
    expect(result.opened).toEqual({ pty: true, shell: expect.stringMatching(/\/bash$/), pid: expect.any(Number) });
    const [pid, pgid, sid] = result.shellIds;
    expect([pgid, sid]).toEqual([pid, pid]);
  });

  it('resizes the terminal (stty size answers rows and columns), ignoring an invalid size with a log line', () => {
    expect(result.sizeBefore).toBe('24 80');
    expect(result.sizeAfter).toBe('50 120');
    expect(result.logs).toEqual(['terminal: ignored resize to 0x50 (cols and rows are 1..1000)']);
  });

  it('passes a 4-byte UTF-8 character as its exact bytes', () => {
    expect(result.emoji).toBe(true);
  });

  it("kills the shell and its background job (a process group of its own in the shell's session) when closed", () => {
    // The interactive shell put the job in its own group, in the shell's session.
    expect(result.jobIds[1]).toBe(result.jobIds[0]);
    expect(result.jobIds[2]).toBe(result.shellIds[0]);
    expect(result.closeMs).toBeLessThan(5_000);
    // Gone, or a zombie (this machine's PID 1 does not reap orphans).
    expect(result.after.shell).toMatch(/^(gone|Z.*)$/);
    expect(result.after.job).toMatch(/^(gone|Z.*)$/);
  });

  it("ends with the shell's exit code after its output", () => {
    expect(result.exit).toEqual({ reason: 'exit', extra: { code: 5 } });
    expect(result.exitOutputEndsWithBye).toBe(true);
  });

  it('stops a flood while the server takes nothing (XOFF), then delivers every byte in order', () => {
    expect(result.floodFinishedWhileHeld).toBe(false);
    expect(result.floodIntact).toBe(true);
    expect(result.floodEnd).toEqual({ reason: 'exit', extra: { code: 0 } });
  });
});
