import { ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditService } from '../../apps/api/src/rmm/access/audit/audit.service';
import { AgentSessions } from '../../apps/api/src/rmm/fleet/agent-channel/agent-sessions';
import { FilesService } from '../../apps/api/src/rmm/remote/files/files.service';
import { linuxAmd64BinDir, manifestEntry } from '../utils/agent-binaries';
import { createOperator, signIn } from '../utils/operators';
import { AGENT_JS, AgentProcess, exec, run } from '../utils/processes';
import { createTenant, insertAgent } from '../utils/rmm-fixtures';
import { sql } from '../utils/sql';
import { startTestApp, TestApp } from '../utils/test-app';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { sleep, until } from '../utils/wait';

/**
 * Files on an agent (issue 32, docs/files.md), end to end with the real single-file agent (the linux-amd64 binary
 * built by the build script) connected to the real server: a listing, the agent's refusals, a download whose
 * SHA-256 matches the file and its header, Range downloads, a 20 MiB upload cut off half way and resumed, a
 * mismatched upload that leaves nothing behind, expiry, and who may do what. Across two instances (REDIS_URL), a
 * download from the instance that does not hold the agent (the Node bundle of the agent).
 */
const ADMIN = 'files-e2e-admin-key-0123456789abcdef';
const MiB = 1024 * 1024;
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const admin = { 'X-API-KEY': ADMIN };

/** GET as bytes (fetch: the body as the server streamed it). */
async function fetchBytes(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** A PUT that sends `sent` of the chunk's declared bytes and then destroys its socket (a connection lost mid-chunk). */
function cutPut(url: string, headers: Record<string, string>, chunk: Buffer, sent: number): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(chunk.length) } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(chunk.subarray(0, sent), () => {
      // (give the bytes a moment on the wire before the connection goes)
      setTimeout(() => req.destroy(), 200);
    });
  });
}

describe('files on an agent (the real single-file agent)', () => {
  let t: TestApp;
  let work: string;
  let dir: string;
  let agentId: string;
  let agent: ChildProcess | undefined;
  let agentLog = '';
  const files = (path = ''): string => `/api/v3/agents/${agentId}/files/${path}`;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'rmm-files-e2e-'));
    // A copy of our own: the shared build folder is replaced when another checkout's tests build other sources.
    const binDir = linuxAmd64BinDir();
    const bin = join(work, 'rmm-agent');
    copyFileSync(join(binDir, manifestEntry(binDir, 'linux-amd64').file), bin);
    chmodSync(bin, 0o755);
    // A low message rate for the agent (a burst of 100): the acks of a 20 MiB upload (640 frames) are not held to it.
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000', RMM_RATE_LIMIT_PER_MINUTE: '100000', RMM_AGENT_MAX_MESSAGES_PER_SECOND: '20' });
    dir = join(work, 'data');
    mkdirSync(dir);
    const prefix = join(work, 'agent');
    const env = { ...process.env, RMM_AGENT_HOSTNAME: 'files-e2e-01' };
    const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = t.server.runtime;
    const d = await t.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
    const reg = await exec(bin, ['register', '--server', t.url, '--token', d.body.uuid, '--prefix', prefix], { env, cwd: work, timeoutMs: 30_000 });
    expect(reg).toMatchObject({ code: 0 });
    agentId = reg.stdout.trim();
    agent = spawn(bin, ['run', '--prefix', prefix], { env, cwd: work });
    agent.stdout!.on('data', (c: Buffer) => (agentLog += c.toString()));
    agent.stderr!.on('data', (c: Buffer) => (agentLog += c.toString()));
    await until(`agent online\n${agentLog}`, async () => (await t.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'online', 30_000);
  }, 300_000);

  afterAll(async () => {
    if (agent && agent.exitCode === null) {
      const closed = new Promise((r) => agent!.once('close', r));
      agent.kill('SIGKILL');
      await closed;
    }
    await t?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('lists a directory: names in order, type, size, mode and mtime, one page', async () => {
    writeFileSync(join(dir, 'b.txt'), 'hello\n');
    chmodSync(join(dir, 'b.txt'), 0o644);
    mkdirSync(join(dir, 'a-dir'));
    chmodSync(join(dir, 'a-dir'), 0o755);
    symlinkSync(join(dir, 'b.txt'), join(dir, 'c-link'));
    const res = await t.http.get(files()).query({ path: dir }).set(admin);
    expect(res.status).toBe(200);
    expect(res.body.path).toBe(dir);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.entries.map((e: { name: string }) => e.name)).toEqual(['a-dir', 'b.txt', 'c-link']);
    expect(res.body.entries[1]).toEqual({ name: 'b.txt', type: 'file', size: 6, mode: '0644', mtime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(res.body.entries[0]).toMatchObject({ type: 'dir', mode: '0755' });
    expect(res.body.entries[2]).toMatchObject({ type: 'link' });
  });

  it("answers the agent's refusals in its words (404, 400), and a missing or relative path 400 naming it", async () => {
    const missing = await t.http.get(files()).query({ path: join(dir, 'nope') }).set(admin);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'no such file or directory' });
    const notDir = await t.http.get(files()).query({ path: join(dir, 'b.txt') }).set(admin);
    expect(notDir.status).toBe(400);
    expect(notDir.body).toEqual({ detail: 'not a directory' });
    const noPath = await t.http.get(files()).set(admin);
    expect(noPath.status).toBe(400);
    expect(noPath.body.errors.map((e: { field: string }) => e.field)).toContain('path');
    const relative = await t.http.get(files()).query({ path: 'etc' }).set(admin);
    expect(relative.status).toBe(400);
    expect(relative.body.errors).toEqual([{ field: 'path', message: 'path must be absolute' }]);
    const isDir = await t.http.get(files('content')).query({ path: dir }).set(admin);
    expect(isDir.status).toBe(400);
    expect(isDir.body).toEqual({ detail: 'is a directory' });
    const noFile = await t.http.get(files('content')).query({ path: join(dir, 'nope.bin') }).set(admin);
    expect(noFile).toMatchObject({ status: 404, body: { detail: 'no such file or directory' } });
  });

  it("downloads a file whose SHA-256 matches the file and the agent's header, as an attachment; audited", async () => {
    const bytes = randomBytes(3 * MiB + 123);
    const path = join(dir, 'report "q1".bin');
    writeFileSync(path, bytes);
    const res = await fetchBytes(`${t.url}${files('content')}?path=${encodeURIComponent(path)}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(bytes.length);
    expect(sha256(res.body)).toBe(sha256(bytes));
    expect(res.headers.get('x-checksum-sha256')).toBe(sha256(bytes));
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="report _q1_.bin"; filename*=UTF-8''report%20%22q1%22.bin`);
    await t.server.app.get(AuditService).flush();
    const rows = await sql(t.db.url, `SELECT actor_kind, method, target, outcome, changes FROM audit_log WHERE action = 'file.download' AND changes->'after'->>'path' = $1`, [path]);
    expect(rows).toEqual([
      { actor_kind: 'api_key', method: 'GET', target: `/api/v3/agents/${agentId}/files/content`, outcome: 'ok', changes: { before: null, after: { path, size: bytes.length, sha256: sha256(bytes) } } },
    ]);
  });

  it('ends the agent\'s session when the client hangs up mid-download (audited with the bytes it got)', async () => {
    const path = join(dir, 'long.bin');
    writeFileSync(path, randomBytes(48 * MiB));
    const sessions = t.server.app.get(AgentSessions);
    const abort = new AbortController();
    const res = await fetch(`${t.url}${files('content')}?path=${encodeURIComponent(path)}`, { headers: admin, signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    expect(sessions.size).toBe(1);
    abort.abort();
    await until('the session closed', async () => sessions.size === 0);
    await t.server.app.get(AuditService).flush();
    const [row] = await sql(t.db.url, `SELECT outcome FROM audit_log WHERE action = 'file.download' AND changes->'after'->>'path' = $1`, [path]);
    expect(row.outcome).toMatch(/^closed after \d+ of 50331648 bytes$/);
  });

  it('answers one Range with 206 and Content-Range (a-b, a-, -n), and a range past the end with 416', async () => {
    const bytes = randomBytes(100_000);
    const path = join(dir, 'ranged.bin');
    writeFileSync(path, bytes);
    const url = `${t.url}${files('content')}?path=${encodeURIComponent(path)}`;
    const mid = await fetchBytes(url, { ...admin, Range: 'bytes=1000-1999' });
    expect(mid.status).toBe(206);
    expect(mid.headers.get('content-range')).toBe('bytes 1000-1999/100000');
    expect(mid.headers.get('content-length')).toBe('1000');
    expect(mid.headers.get('x-checksum-sha256')).toBe(sha256(bytes)); // the whole file's
    expect(mid.body.equals(bytes.subarray(1000, 2000))).toBe(true);
    const from = await fetchBytes(url, { ...admin, Range: 'bytes=99990-' });
    expect(from.status).toBe(206);
    expect(from.body.equals(bytes.subarray(99_990))).toBe(true);
    const suffix = await fetchBytes(url, { ...admin, Range: 'bytes=-16' });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe('bytes 99984-99999/100000');
    expect(suffix.body.equals(bytes.subarray(99_984))).toBe(true);
    const past = await fetchBytes(url, { ...admin, Range: 'bytes=100000-' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */100000');
    expect(JSON.parse(past.body.toString())).toEqual({ detail: 'range not satisfiable: the file has 100000 bytes' });
  });

  it('uploads 20 MiB cut off half way, resumed from GET received: the file matches its hash, no temporary file left; audited', async () => {
    const bytes = randomBytes(20 * MiB);
    const path = join(dir, 'big.bin');
    const begun = await t.http.post(files('uploads/')).set(admin).send({ path, size: bytes.length, sha256: sha256(bytes) });
    expect(begun.status).toBe(201);
    expect(begun.body).toEqual({ upload_id: expect.stringMatching(/^[0-9a-f-]{36}$/), chunk_size: MiB, received: 0 });
    const id = begun.body.upload_id as string;
    const put = (offset: number, chunk: Buffer) => t.http.put(files(`uploads/${id}`)).query({ offset }).set(admin).set('Content-Type', 'application/octet-stream').send(chunk);
    for (let offset = 0; offset < 10 * MiB; offset += MiB) {
      const r = await put(offset, bytes.subarray(offset, offset + MiB));
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ received: offset + MiB, status: 'open' });
    }
    // The eleventh chunk: half of it goes, then the connection is lost.
    await cutPut(`${t.url}${files(`uploads/${id}`)}?offset=${10 * MiB}`, admin, bytes.subarray(10 * MiB, 11 * MiB), MiB / 2);
    // Resume as a client does: ask where it stands (a PUT still finishing on the server answers 409 busy meanwhile).
    let offset = -1;
    let resumedFrom = -1;
    for (let round = 0; offset < bytes.length; round++) {
      if (round > 200) throw new Error('the upload did not finish');
      const state = await t.http.get(files(`uploads/${id}`)).set(admin);
      expect(state.status).toBe(200);
      offset = state.body.received;
      if (resumedFrom < 0) resumedFrom = offset;
      const r = await put(offset, bytes.subarray(offset, offset + MiB));
      if (r.status === 409) {
        expect(r.body.detail).toMatch(/another PUT of this upload is under way|offset must be/);
        await sleep(100);
        continue;
      }
      expect(r.status).toBe(200);
      if (r.body.status === 'done') {
        expect(r.body).toEqual({ received: bytes.length, status: 'done', sha256: sha256(bytes) });
        break;
      }
      offset = r.body.received;
    }
    expect(resumedFrom).toBeGreaterThanOrEqual(10 * MiB);
    expect(resumedFrom).toBeLessThanOrEqual(10.5 * MiB);
    expect(sha256(readFileSync(path))).toBe(sha256(bytes));
    expect(readdirSync(dir).filter((n) => n.includes('.rmm-upload-'))).toEqual([]);
    expect((await t.http.get(files(`uploads/${id}`)).set(admin)).body).toEqual({ upload_id: id, path, size: bytes.length, received: bytes.length, status: 'done' });
    // A chunk at another offset than received is 409 with received; a finished upload takes no more.
    const again = await put(0, bytes.subarray(0, 10));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'upload is done', received: bytes.length });
    await t.server.app.get(AuditService).flush();
    const rows = await sql(t.db.url, `SELECT outcome, changes FROM audit_log WHERE action = 'file.upload' AND changes->'after'->>'path' = $1`, [path]);
    expect(rows).toEqual([{ outcome: 'done', changes: { before: null, after: { path, size: bytes.length, sha256: sha256(bytes) } } }]);
  }, 120_000);

  it('refuses a chunk at the wrong offset (409 with received) and one over chunk_size (413)', async () => {
    const bytes = randomBytes(3 * MiB);
    const begun = await t.http.post(files('uploads/')).set(admin).send({ path: join(dir, 'offsets.bin'), size: bytes.length, sha256: sha256(bytes) });
    const id = begun.body.upload_id as string;
    const put = (offset: number, chunk: Buffer) => t.http.put(files(`uploads/${id}`)).query({ offset }).set(admin).set('Content-Type', 'application/octet-stream').send(chunk);
    const wrong = await put(MiB, bytes.subarray(0, MiB));
    expect(wrong.status).toBe(409);
    expect(wrong.body).toEqual({ detail: 'offset must be 0: the bytes the agent has', received: 0 });
    const big = await put(0, bytes.subarray(0, MiB + 1));
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ detail: `a chunk is at most ${MiB} bytes` });
    expect((await put(0, bytes.subarray(0, MiB))).body).toEqual({ received: MiB, status: 'open' });
    const bad = await t.http.post(files('uploads/')).set(admin).send({ path: 'relative.bin', size: -1, sha256: 'xyz' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['path', 'sha256', 'size']);
    const exists = await t.http.post(files('uploads/')).set(admin).send({ path: join(dir, 'b.txt'), size: 1, sha256: sha256(Buffer.from('x')) });
    expect(exists.status).toBe(409);
    expect(exists.body).toEqual({ detail: 'file exists' });
    expect((await t.http.get(files(`uploads/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).set(admin)).status).toBe(404);
  });

  it('refuses a second PUT of an upload while one is under way (409), and the first goes on', async () => {
    const bytes = randomBytes(MiB);
    const path = join(dir, 'busy.bin');
    const begun = await t.http.post(files('uploads/')).set(admin).send({ path, size: bytes.length, sha256: sha256(bytes) });
    const id = begun.body.upload_id as string;
    const temp = join(dir, `.busy.bin.rmm-upload-${id}`);
    const first = httpRequest(`${t.url}${files(`uploads/${id}`)}?offset=0`, { method: 'PUT', headers: { ...admin, 'content-type': 'application/octet-stream', 'content-length': String(bytes.length) } });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      first.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      first.on('error', reject);
    });
    first.write(bytes.subarray(0, MiB / 2));
    // Under way once its first bytes reached the agent's temporary file.
    await until('the first PUT under way', async () => existsSync(temp) && readFileSync(temp).length > 0);
    const second = await t.http.put(files(`uploads/${id}`)).query({ offset: 0 }).set(admin).set('Content-Type', 'application/octet-stream').send(bytes);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ detail: 'another PUT of this upload is under way' });
    first.end(bytes.subarray(MiB / 2));
    const done = await answered;
    expect([done.status, JSON.parse(done.body)]).toEqual([200, { received: MiB, status: 'done', sha256: sha256(bytes) }]);
    expect(sha256(readFileSync(path))).toBe(sha256(bytes));
  });

  it('a mismatched upload is 422 and leaves nothing: neither the target nor a temporary file', async () => {
    const bytes = randomBytes(2 * MiB + 7);
    const path = join(dir, 'mismatch.bin');
    const declared = sha256(Buffer.from('something else'));
    const begun = await t.http.post(files('uploads/')).set(admin).send({ path, size: bytes.length, sha256: declared });
    const id = begun.body.upload_id as string;
    let res;
    for (let offset = 0; offset < bytes.length; offset += MiB) {
      res = await t.http.put(files(`uploads/${id}`)).query({ offset }).set(admin).set('Content-Type', 'application/octet-stream').send(bytes.subarray(offset, offset + MiB));
    }
    expect(res!.status).toBe(422);
    expect(res!.body).toEqual({ detail: `checksum mismatch: expected ${declared}, got ${sha256(bytes)}` });
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir).filter((n) => n.startsWith('.mismatch.bin.rmm-upload-'))).toEqual([]);
    expect((await t.http.get(files(`uploads/${id}`)).set(admin)).body).toMatchObject({ status: 'failed' });
    await t.server.app.get(AuditService).flush();
    const [row] = await sql(t.db.url, `SELECT outcome FROM audit_log WHERE action = 'file.upload' AND changes->'after'->>'path' = $1`, [path]);
    expect(row.outcome).toMatch(/^failed: checksum mismatch/);
  });

  it('expires an upload left open past its 24 hours: status expired, its temporary file removed on the agent', async () => {
    const path = join(dir, 'forgotten.bin');
    const bytes = randomBytes(MiB + 1);
    const begun = await t.http.post(files('uploads/')).set(admin).send({ path, size: bytes.length, sha256: sha256(bytes) });
    const id = begun.body.upload_id as string;
    await t.http.put(files(`uploads/${id}`)).query({ offset: 0 }).set(admin).set('Content-Type', 'application/octet-stream').send(bytes.subarray(0, MiB));
    expect(readdirSync(dir)).toContain(`.forgotten.bin.rmm-upload-${id}`);
    await sql(t.db.url, `UPDATE file_uploads SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await t.server.app.get(FilesService).expireUploads()).toBe(1);
    expect((await t.http.get(files(`uploads/${id}`)).set(admin)).body).toMatchObject({ status: 'expired', received: MiB });
    await until('the temporary file removed', async () => !readdirSync(dir).includes(`.forgotten.bin.rmm-upload-${id}`));
  });

  it('a viewer gets 403, another client\'s technician 404; an agent that is not connected 409 "agent is offline"', async () => {
    const other = await createTenant(t, 'Files Other Client');
    await createOperator(t, 'files-viewer@example.com', 'viewer');
    await createOperator(t, 'files-tech-other@example.com', 'technician', { clients: [other.clientId] });
    const viewer = await signIn(t, 'files-viewer@example.com');
    const tech = await signIn(t, 'files-tech-other@example.com');
    const asViewer = await t.http.get(files()).query({ path: dir }).set('Cookie', viewer);
    expect(asViewer.status).toBe(403);
    expect(asViewer.body).toEqual({ detail: 'permission denied' });
    const asOther = await t.http.get(files('content')).query({ path: join(dir, 'b.txt') }).set('Cookie', tech);
    expect(asOther.status).toBe(404);
    const asOtherUpload = await t.http.post(files('uploads/')).set('Cookie', tech).set('X-Requested-With', 'rmm-console').send({ path: join(dir, 'x.bin'), size: 1, sha256: '0'.repeat(64) });
    expect(asOtherUpload.status).toBe(404);
    // The technician's own client's agent, never connected.
    const offline = await insertAgent(t, { hostname: 'files-offline-01', clientId: other.clientId, siteId: other.siteId, plat: 'linux' });
    const res = await t.http.get(`/api/v3/agents/${offline}/files/`).query({ path: '/' }).set('Cookie', tech);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: 'agent is offline' });
  });
});

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  describe('files across two instances', () => {
    console.log('skipped: the two-instance download needs REDIS_URL (e.g. redis://127.0.0.1:6379)');
    it.skip('downloads on A a file of an agent connected to B (needs REDIS_URL)', () => undefined);
  });
} else {
  describe('files across two instances (one database, one Redis; the agent on B, the HTTP request on A)', () => {
    let db: TestDatabase;
    let a: TestApp;
    let b: TestApp;
    let work: string;
    let agent: AgentProcess;

    beforeAll(async () => {
      db = await createTestDatabase();
      const env = {
        RMM_ADMIN_API_KEY: ADMIN,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: `test-files-${process.pid}-${Date.now()}:`,
        RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000',
        RMM_RATE_LIMIT_PER_MINUTE: '100000',
      };
      a = await startTestApp(env, { db });
      b = await startTestApp(env, { db });
      work = mkdtempSync(join(tmpdir(), 'rmm-files-instances-'));
    });
    afterAll(async () => {
      await agent?.stop();
      await a?.close();
      await b?.close();
      await db?.drop();
      if (work) rmSync(work, { recursive: true, force: true });
    });

    it('streams a file of the agent held by B through A (bytes and header match the file), and an upload through A', async () => {
      const prefix = join(work, 'agent');
      const env = { ...process.env, RMM_AGENT_HOSTNAME: 'files-instances-01' };
      const { rmmDefaultClientId: client, rmmDefaultSiteId: site } = b.server.runtime;
      const d = await b.http.post('/api/v3/agents/deployments/').set(admin).send({ client, site });
      const reg = await run([AGENT_JS, 'register', '--server', b.url, '--token', d.body.uuid, '--prefix', prefix], env, 20_000);
      expect(reg.code).toBe(0);
      const agentId = reg.stdout.trim();
      agent = new AgentProcess(prefix, env);
      agent.start();
      await until(`agent online\n${agent.output}`, async () => (await a.http.get(`/api/v3/agents/${agentId}/`).set(admin)).body.status === 'online', 20_000);
      const bytes = randomBytes(2 * MiB + 5);
      const path = join(work, 'across.bin');
      writeFileSync(path, bytes);
      const res = await fetchBytes(`${a.url}/api/v3/agents/${agentId}/files/content?path=${encodeURIComponent(path)}`, admin);
      expect(res.status).toBe(200);
      expect(sha256(res.body)).toBe(sha256(bytes));
      expect(res.headers.get('x-checksum-sha256')).toBe(sha256(bytes));
      const listed = await a.http.get(`/api/v3/agents/${agentId}/files/`).query({ path: work }).set(admin);
      expect(listed.status).toBe(200);
      expect(listed.body.entries.map((e: { name: string }) => e.name)).toContain('across.bin');
      // An upload through A too: its chunks relayed to B's agent.
      const up = randomBytes(MiB + 3);
      const target = join(work, 'uploaded-across.bin');
      const begun = await a.http.post(`/api/v3/agents/${agentId}/files/uploads/`).set(admin).send({ path: target, size: up.length, sha256: sha256(up) });
      expect(begun.status).toBe(201);
      const put = (offset: number) => a.http.put(`/api/v3/agents/${agentId}/files/uploads/${begun.body.upload_id}`).query({ offset }).set(admin).set('Content-Type', 'application/octet-stream').send(up.subarray(offset, offset + MiB));
      expect((await put(0)).body).toEqual({ received: MiB, status: 'open' });
      expect((await put(MiB)).body).toEqual({ received: up.length, status: 'done', sha256: sha256(up) });
      expect(sha256(readFileSync(target))).toBe(sha256(up));
    }, 60_000);
  });
}

