import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawMachineId } from '../../../apps/agent/src/facts';
import { Chunk, runScript } from '../../../apps/agent/src/run-script';
import { parseUpdateFile, readUpdateFile, writeUpdateFile } from '../../../apps/agent/src/update';

// The reference agent's parts that run a process or write files (the pure parts: apps/agent/src/*.spec.ts).
describe('reference agent, on this machine', () => {
  describe('output coalescing', () => {
    it('streams a real script\'s output before it resolves', async () => {
      const chunks: Chunk[] = [];
      const outcome = await runScript({ shell: 'bash', body: 'echo one; echo two >&2', args: [], timeoutSeconds: 10 }, (x) => chunks.push(x));
      expect(outcome).toMatchObject({ ok: true, result: { stdout: 'one\n', stderr: 'two\n' } });
      expect(chunks.map((x) => x.seq)).toEqual(chunks.map((_, i) => i));
      expect(chunks.filter((x) => x.stream === 'stdout').map((x) => x.chunk).join('')).toBe('one\n');
      expect(chunks.filter((x) => x.stream === 'stderr').map((x) => x.chunk).join('')).toBe('two\n');
    });
  });

  describe('hardware id', () => {
    it('reads the first machine-id file that holds an id, skipping a missing, empty or uninitialized one', () => {
      if (process.platform === 'darwin' || process.platform === 'win32') return; // (Linux's files only)
      const dir = mkdtempSync(join(tmpdir(), 'rmm-machine-id-'));
      try {
        writeFileSync(join(dir, 'empty'), '\n');
        writeFileSync(join(dir, 'image'), 'uninitialized\n');
        writeFileSync(join(dir, 'dbus'), '4c2a9f0e8b7d4e1f9a3b5c6d7e8f9012\n');
        expect(rawMachineId([join(dir, 'missing'), join(dir, 'empty'), join(dir, 'image'), join(dir, 'dbus')])).toBe('4c2a9f0e8b7d4e1f9a3b5c6d7e8f9012');
        expect(rawMachineId([join(dir, 'missing')])).toBeUndefined();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });

  describe('update.json', () => {
    const pending = { from: '0.1.0', to: '0.1.1', deadline: '2026-11-26T12:02:00.000Z' };

    it('is written 0600 and read back; anything else reads as none', () => {
      const dir = mkdtempSync(join(tmpdir(), 'rmm-update-json-'));
      try {
        writeUpdateFile(dir, pending);
        expect(statSync(join(dir, 'update.json')).mode & 0o777).toBe(0o600);
        expect(readUpdateFile(dir)).toEqual(pending);
        expect(JSON.parse(readFileSync(join(dir, 'update.json'), 'utf8'))).toEqual(pending);
        writeFileSync(join(dir, 'update.json'), '{"from":"0.1.0"}');
        expect(readUpdateFile(dir)).toBeUndefined();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect(parseUpdateFile('not json')).toBeUndefined();
      expect(parseUpdateFile('null')).toBeUndefined();
      expect(parseUpdateFile('{"from":"a","to":"b","deadline":"never"}')).toBeUndefined();
      expect(parseUpdateFile('{"rolled_back":"0.1.1","error":"e"}')).toEqual({ rolled_back: '0.1.1', error: 'e' });
    });
  });
});
