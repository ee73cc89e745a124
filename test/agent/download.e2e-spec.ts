import { createHash } from 'node:crypto';
import { request as httpRequest, IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { AGENT_TARGETS } from '@app/entities';
import { linuxAmd64BinDir, manifestEntry, VERSION } from '../utils/agent-binaries';
import { startTestApp, TestApp } from '../utils/test-app';

/** GET /agent/v1/download/{target} over real HTTP, read byte for byte (no client-side decoding). */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}
function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

const built = linuxAmd64BinDir();

describe('GET /agent/v1/download/{target}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RMM_AGENT_BIN_DIR: built });
  });
  afterAll(async () => t?.close());

  it('an unknown target: 404 naming the targets there are (no key needed)', async () => {
    const res = await get(t.url, '/agent/v1/download/linux-x64');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toEqual({ detail: 'unknown target: linux-x64', targets: [...AGENT_TARGETS] });
    expect(AGENT_TARGETS).toEqual(['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64', 'windows-amd64']);
  });


  it('200: the binary itself, byte for byte, with its checksum, ETag, size and file name', async () => {
    const entry = manifestEntry(built, 'linux-amd64');
    const res = await get(t.url, '/agent/v1/download/linux-amd64');
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'content-length': String(entry.size),
      'x-checksum-sha256': entry.sha256,
      etag: `"${entry.sha256}"`,
      'content-disposition': 'attachment; filename="rmm-agent-linux-amd64"',
      vary: 'Accept-Encoding',
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body.length).toBe(entry.size);
    expect(sha256(res.body)).toBe(entry.sha256);
    expect(res.body.equals(readFileSync(join(built, 'rmm-agent-linux-amd64')))).toBe(true);
  });

  it('Accept-Encoding: gzip gets the .gz, which decodes to the same bytes (the checksum still of the binary)', async () => {
    const entry = manifestEntry(built, 'linux-amd64');
    const res = await get(t.url, '/agent/v1/download/linux-amd64', { 'Accept-Encoding': 'gzip, deflate' });
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({ 'content-encoding': 'gzip', 'content-length': String(entry.gzip!.size), 'x-checksum-sha256': entry.sha256, vary: 'Accept-Encoding' });
    expect(res.body.length).toBe(entry.gzip!.size);
    expect(sha256(gunzipSync(res.body))).toBe(entry.sha256);
    // gzip;q=0 refuses it
    const refused = await get(t.url, '/agent/v1/download/linux-amd64', { 'Accept-Encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.length).toBe(entry.size);
  });

  it('If-None-Match with its ETag: 304 without a body; another ETag: the binary', async () => {
    const entry = manifestEntry(built, 'linux-amd64');
    const same = await get(t.url, '/agent/v1/download/linux-amd64', { 'If-None-Match': `"${entry.sha256}"` });
    expect(same.status).toBe(304);
    expect(same.headers.etag).toBe(`"${entry.sha256}"`);
    expect(same.body.length).toBe(0);
    const other = await get(t.url, '/agent/v1/download/linux-amd64', { 'If-None-Match': `"${'0'.repeat(64)}"` });
    expect(other.status).toBe(200);
    expect(other.body.length).toBe(entry.size);
  });

  it("a target not built (the tests' app builds nothing): 503 {detail}", async () => {
    const res = await get(t.url, '/agent/v1/download/windows-amd64');
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body.toString())).toEqual({ detail: 'the agent binary for windows-amd64 is not built on this server' });
  });

  it('HEAD: the same headers, no body', async () => {
    const entry = manifestEntry(built, 'linux-amd64');
    const res = await get(t.url, '/agent/v1/download/linux-amd64', {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({ 'content-length': String(entry.size), 'x-checksum-sha256': entry.sha256 });
    expect(res.body.length).toBe(0);
  });
});

describe('GET /agent/v1/download/{target}: a binary not built yet', () => {
  // The lazy build spawns `node scripts/build-agent.js --binaries …`.
  let t: TestApp | undefined;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rmm-lazy-bins-'));
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is built on the first request (concurrent requests share the build) and then served as built', async () => {
    t = await startTestApp({ RMM_AGENT_BIN_DIR: dir }, { overrides: { agentBuild: true } });
    const [a, b] = await Promise.all([get(t.url, '/agent/v1/download/linux-amd64'), get(t.url, '/agent/v1/download/linux-amd64')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const entry = manifestEntry(dir, 'linux-amd64');
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).version).toBe(VERSION);
    for (const res of [a, b]) expect(sha256(res.body)).toBe(entry.sha256);
    expect(t.logs.filter((l) => l.includes('building the agent binary for linux-amd64'))).toHaveLength(1);
  }, 300_000);

  it('a build that cannot succeed: 503 {detail}', async () => {
    // RMM_AGENT_BIN_DIR under a file: the build cannot write there
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    t = await startTestApp({ RMM_AGENT_BIN_DIR: join(file, 'bin') }, { overrides: { agentBuild: true } });
    const res = await get(t.url, '/agent/v1/download/darwin-arm64');
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body.toString())).toEqual({ detail: 'the agent binary for darwin-arm64 could not be built on this server (its log says why)' });
  }, 300_000);
});
