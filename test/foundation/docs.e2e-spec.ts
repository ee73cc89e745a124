import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const read = (file: string): string => readFileSync(join(__dirname, '../..', file), 'utf8');
const limitsTable = (text: string): string => {
  const start = text.indexOf('| Limit | Value | Past it |');
  if (start < 0) return '';
  const rows = text.slice(start).split('\n');
  return rows.slice(0, rows.findIndex((l) => !l.startsWith('|'))).join('\n');
};
/** The markdown pages of docs/, as repository paths. */
const docPages = (): string[] => readdirSync(join(__dirname, '../../docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);

describe('documentation that must agree', () => {
  it('keeps one limits table, in docs/security.md, naming only variables the server reads; the README links it', () => {
    const security = limitsTable(read('docs/security.md'));
    expect(security.split('\n').length).toBeGreaterThan(10);
    for (const file of ['README.md', ...docPages().filter((f) => f !== 'docs/security.md')]) expect([file, limitsTable(read(file))]).toEqual([file, '']);
    // every setting a limit names is a variable of docs/configuration.md's table (itself checked against the code)
    const configuration = read('docs/configuration.md');
    for (const [, name] of security.matchAll(/`([A-Z][A-Z0-9]*_[A-Z0-9_]+)`/g)) expect([name, configuration.includes(`| \`${name}\``) || configuration.includes(`, \`${name}\` |`)]).toEqual([name, true]);
    expect(read('README.md')).toContain('[docs/security.md](docs/security.md)');
  });
});

/** The .ts files under a folder of the repository, as repository paths. */
const sources = (dir: string): string[] =>
  readdirSync(join(__dirname, '../..', dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );

describe('README truths', () => {
  it("states the Node.js versions package.json's engines.node allows, and this suite runs on one of them", () => {
    const engines = JSON.parse(read('package.json')).engines.node as string;
    const min = /^>=(\d+)\.(\d+)$/.exec(engines);
    expect(min).not.toBeNull();
    const readme = read('README.md');
    expect(readme).toContain(`Requires Node.js ${min![1]}.${min![2]} or later (\`engines\` in \`package.json\`: \`${engines}\`)`);
    const [major, minor] = process.versions.node.split('.').map(Number);
    expect(major > Number(min![1]) || (major === Number(min![1]) && minor >= Number(min![2]))).toBe(true);
  });

  it('names, as the EBADENGINE warnings of npm ci on the oldest Node allowed, the run-time packages package-lock.json says refuse it', () => {
    // semver (a devDependency; Jest and Fastify use the same version): its types are not installed.
    const semver = require('semver') as { satisfies(version: string, range: string): boolean };
    const oldest = `${/^>=(\d+\.\d+)$/.exec(JSON.parse(read('package.json')).engines.node as string)![1]}.0`;
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean; engines?: { node?: string } | string[] }> };
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !Array.isArray(p.engines) && typeof p.engines?.node === 'string' && !semver.satisfies(oldest, p.engines.node))
      .map(([path, p]) => ({ name: path.replace(/^.*node_modules\//, ''), dev: p.dev === true }));
    expect(refusing.length).toBeGreaterThan(0); // else the README's paragraph is to go
    const readme = read('README.md');
    const paragraph = readme.slice(readme.indexOf('`npm ci` prints `EBADENGINE`'), readme.indexOf('\n\n', readme.indexOf('`npm ci` prints `EBADENGINE`')));
    const runtime = /of those the server runs,\s+([^;]+);/.exec(paragraph)?.[1] ?? '';
    expect([...runtime.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort()).toEqual([...new Set(refusing.filter((p) => !p.dev).map((p) => p.name))].sort());
    // the rest are development tools, and the paragraph puts no count on them (a count would go stale)
    expect(refusing.some((p) => p.dev)).toBe(/the others are development tools/.test(paragraph));
    expect(paragraph).not.toMatch(/\b\d+ (packages|warnings)\b/);
  });

  it('links only files inside the repository, and every one of them exists', () => {
    let checked = 0;
    for (const file of ['README.md', 'apps/agent/README.md', ...docPages()]) {
      const base = join(__dirname, '../..', dirname(file));
      const links = [...read(file).matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/i.test(l));
      for (const link of links) {
        const target = resolve(base, link);
        expect([file, link, relative(join(__dirname, '../..'), target).startsWith('..')]).toEqual([file, link, false]);
        expect([file, link, existsSync(target)]).toEqual([file, link, true]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('keeps docs/spec.md a verbatim copy of the contract under its one-line note', () => {
    const spec = read('docs/spec.md');
    const [note, blank, ...rest] = spec.split('\n');
    expect(note).toMatch(/^> The contract this server implements/);
    expect(blank).toBe('');
    expect(rest[0]).toBe('# Device Enrollment Service and Management Backend Interface');
    // Beside the repository (the authors' workspace) the original may be at hand: then the copy must equal it.
    const original = join(__dirname, '../../../shared/spec/enrollment-and-backend-spec.md');
    if (existsSync(original)) expect(rest.join('\n')).toBe(readFileSync(original, 'utf8'));
  });

  it("is a newcomer's page: what the server is, the two commands, enrolling, a first script, watching, and links to every docs page", () => {
    const readme = read('README.md');
    expect(readme.match(/^## .*/gm)).toEqual(['## Quick start', '## Enrolling a device', '## Running a first script', "## Watching an agent's events", '## Deploying', '## Documentation']);
    const quick = readme.slice(readme.indexOf('## Quick start'));
    const commands = /```sh\n([\s\S]*?)```/.exec(quick)![1].split('\n').filter(Boolean).map((l) => l.replace(/\s+#.*$/, ''));
    expect(commands).toEqual(['npm ci && npm start', 'npm test']);
    // nothing is announced as coming, and no internal issue title stands in for a description
    expect(readme).not.toMatch(/What is coming|\(issue "|issue "[A-Z]/);
    // every page of docs/ is one link away (the reference material lives there)
    for (const page of docPages()) expect([page, readme.includes(`](${page})`)]).toEqual([page, true]);
    expect(readme.split('\n').length).toBeLessThan(200);
  });

  it('names only npm scripts package.json has (README and docs/)', () => {
    const scripts = Object.keys(JSON.parse(read('package.json')).scripts as Record<string, string>);
    const named = ['README.md', ...docPages()].flatMap((file) => [...read(file).matchAll(/npm run (?:-s )?(?!-)([\w:-]+)/g)].map((m) => `${file}: ${m[1]}`));
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((n) => !scripts.includes(n.split(': ')[1]))).toEqual([]);
  });

  it("shows how to watch an agent's events with what the repository has: npm run watch and the events WebSocket", () => {
    const readme = read('README.md');
    const start = readme.indexOf("## Watching an agent's events");
    expect(start).toBeGreaterThan(0);
    const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
    // npm run watch is a script of package.json, on a file that needs no build step (plain JavaScript)
    const watch = JSON.parse(read('package.json')).scripts.watch as string;
    expect(watch).toMatch(/^node scripts\/[\w-]+\.js$/);
    expect(existsSync(join(__dirname, '../..', watch.split(' ')[1]))).toBe(true);
    expect(section).toContain('RMM_WATCH_KEY="$KEY" npm run -s watch -- --url http://localhost:3000 --agent 42');
    // the plain client uses the key as ?api_key= on the path the server serves (test/process/watch.e2e-spec.ts runs it)
    expect(section).toContain('"ws://localhost:3000/rmm/42/?api_key=$KEY"');
    expect(sources('apps/api/src').some((f) => /['"`]\/rmm\/[:{$]/.test(read(f)))).toBe(true);
    for (const doc of ['docs/events.md', 'docs/asyncapi.yaml']) expect(section).toContain(`(${doc})`);
    // and it is no longer announced as coming
    expect(readme).not.toMatch(/Nothing listens on that path yet|Not there yet: the `\/rmm\//);
  });

  it('never has npm echo a key: every documented npm script given a key or secret runs with -s (or takes it from a variable)', () => {
    const docs = ['README.md', ...docPages()];
    const offending: string[] = [];
    for (const doc of docs) {
      read(doc)
        .split('\n')
        .forEach((line, i) => {
          // `npm run X -- … --key/--secret/--token …` or a $KEY/$SECRET argument, without -s: npm prints the command line
          for (const m of line.matchAll(/npm run (?!-s )[\w:-]+[^`|]*/g)) {
            if (/--(key|secret|token|password)\b|\$\{?\w*(KEY|SECRET|TOKEN|PASSWORD)\b/i.test(m[0])) offending.push(`${doc}:${i + 1}: ${m[0]}`);
          }
        });
    }
    expect(offending).toEqual([]);
  });

  it('git-ignores the files its examples leave in the project folder', () => {
    const ignored = read('.gitignore').split('\n');
    for (const entry of ['/enrollment.json', '/deployment.json', '/rmm-agent-*']) expect(ignored).toContain(entry);
    expect(read('docs/enrolling.md')).toContain('tee enrollment.json');
    expect(read('docs/api.md')).toContain('tee deployment.json');
    expect(read('docs/enrolling.md')).toContain('-o rmm-agent-install.sh');
  });
});
