import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeAgent } from '../utils/fake-agent';
import { section } from '../utils/markdown';
import { createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';

const ROOT = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
const ADMIN = 'docs-examples-admin-key-0123456789';

/** One shell command of a documented `sh` block, with the answers shown under it (`# {…}` lines). */
interface Documented {
  where: string;
  command: string;
  shown: string[];
}

/** The shell commands of the `sh` blocks of a section: continued lines joined, here-documents and a closing `)` kept with their command. */
function commandsOf(file: string, heading: string): Documented[] {
  const out: Documented[] = [];
  for (const [, block] of section(read(file), heading).matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.trim() === '') continue;
      if (line.startsWith('#')) {
        if (/^# [[{]/.test(line)) out[out.length - 1].shown.push(line.slice(2));
        continue;
      }
      const command = [line];
      while (command[command.length - 1].endsWith('\\')) command.push(lines[++i]);
      const heredoc = /<<'?(\w+)'?/.exec(command.join('\n'));
      if (heredoc) while (lines[i] !== heredoc[1]) command.push(lines[++i]);
      if (/=\$\(/.test(command[0]) && lines[i + 1] === ')') command.push(lines[++i]);
      out.push({ where: `${file}, ${heading}`, command: command.join('\n'), shown: [] });
    }
  }
  return out;
}

/** Fields whose values differ from one run to the next (ids, times): the shown answer must have them, with any value. */
const VARYING = new Set(['id', 'agent', 'script', 'execution_time', 'next_run_at', 'last_run_at', 'created_at', 'updated_at']);

const curlMissing = spawnSync('curl', ['--version']).status !== 0;
if (curlMissing) console.log('test/docs/examples.e2e-spec.ts: skipped: curl is not installed (the documented requests are curl commands)');

/**
 * The full requests the README ("Running a first script") and docs/api.md ("Scripts, checks and tasks") show,
 * run as they are written (bash, curl, node) against the app, with an agent that runs what it is sent: every
 * answer shown under a command is the answer the server gives, field for field (ids and times aside).
 */
(curlMissing ? describe.skip : describe)('the documented requests for scripts, checks and tasks', () => {
  let t: TestApp;
  let agent: FakeAgent;
  let agentId: string;

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN });
    const tenant = await createTenant(t, 'Docs Ltd');
    const d = await t.http.post('/api/v3/agents/deployments/').set('X-API-KEY', ADMIN).send({ client: tenant.clientId, site: tenant.siteId });
    const r = await t.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: 'docs-ws-01', plat: 'linux', version: '0.1.0' });
    expect(r.status).toBe(200);
    agentId = r.body.agent_id;
    agent = await FakeAgent.connect(t.url, agentId, r.body.agent_secret);
    await agent.next('hello');
    // an agent that runs what it is sent, for real (bash), and answers as the protocol says
    agent.ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as { type: string; id: string; shell: string; body: string; args: string[] };
      if (m.type !== 'script.run') return;
      const started = Date.now();
      const run = spawn(m.shell, ['-c', m.body, m.shell, ...m.args]);
      let stdout = '';
      let stderr = '';
      run.stdout.on('data', (c) => (stdout += c));
      run.stderr.on('data', (c) => (stderr += c));
      run.on('close', (retcode) => agent.send({ type: 'result', id: m.id, ok: true, result: { retcode, stdout, stderr, executionTime: (Date.now() - started) / 1000, timedOut: false } }));
    });
  });
  afterAll(async () => {
    agent?.ws.terminate();
    await t?.close();
  });

  it('runs every command as written, and each answer is the one shown', async () => {
    const documented = [...commandsOf('README.md', '## Running a first script'), ...commandsOf('docs/api.md', '## Scripts, checks and tasks')];
    // a script, a run (wait and forget), a check and a task: each shown with its full body and its answer
    expect(documented.map((d) => /-X POST \S+\/api\/v3\/([a-z]+\/(?:\$AGENT\/runscript\/)?)/.exec(d.command)?.[1])).toEqual([
      'scripts/',
      'agents/$AGENT/runscript/',
      'scripts/',
      'agents/$AGENT/runscript/',
      'checks/',
      'tasks/',
    ]);
    for (const d of documented) expect([d.where, d.command, d.command.includes('npm run')]).toEqual([d.where, d.command, false]);

    const END = '@@end-of-command@@';
    const script = ['set -euo pipefail', ...documented.map((d) => `${d.command.replaceAll('http://localhost:3000', t.url)}\nprintf '\\n${END}\\n'`)].join('\n');
    const shell = spawn('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, KEY: ADMIN, AGENT: agentId } });
    let stdout = '';
    let stderr = '';
    shell.stdout.on('data', (c) => (stdout += c));
    shell.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => shell.on('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
    const answers = stdout.split(`\n${END}\n`).slice(0, documented.length);
    expect(answers).toHaveLength(documented.length);

    documented.forEach((d, i) => {
      const real = answers[i].trim();
      if (d.shown.length === 0) {
        expect([d.command, real]).toEqual([d.command, '']); // nothing printed where nothing is shown
        return;
      }
      const shown = JSON.parse(d.shown.join('\n')) as Record<string, unknown>;
      const answer = JSON.parse(real) as Record<string, unknown>;
      expect([d.command, Object.keys(answer)]).toEqual([d.command, Object.keys(shown)]);
      for (const [field, value] of Object.entries(shown)) {
        expect([d.command, field, VARYING.has(field) ? typeof answer[field] : answer[field]]).toEqual([d.command, field, VARYING.has(field) ? typeof value : value]);
      }
    });

    // what the requests made is there, as they asked
    const checks = (await t.http.get(`/api/v3/checks/?agent=${agentId}`).set('X-API-KEY', ADMIN)).body as Array<Record<string, unknown>>;
    expect(checks).toEqual([expect.objectContaining({ agent: agentId, check_type: 'diskspace', run_interval: 300, fails_b4_alert: 2, severity: 'error' })]);
    const tasks = (await t.http.get(`/api/v3/tasks/?agent=${agentId}`).set('X-API-KEY', ADMIN)).body as Array<Record<string, unknown>>;
    expect(tasks).toEqual([expect.objectContaining({ agent: agentId, schedule: '0 3 * * *', enabled: true })]);
    const runs = (await t.http.get(`/api/v3/agents/${agentId}/runs/`).set('X-API-KEY', ADMIN)).body as Array<Record<string, unknown>>;
    expect(runs.map((r) => r.args)).toEqual(expect.arrayContaining([['there'], ['later']]));
  }, 60_000);
});
