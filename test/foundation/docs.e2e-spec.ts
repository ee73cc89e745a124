import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const read = (file: string): string => readFileSync(join(__dirname, '../..', file), 'utf8');
const limitsTable = (text: string): string => {
  const start = text.indexOf('| Limit | Value | Past it |');
  const rows = text.slice(start).split('\n');
  return rows.slice(0, rows.findIndex((l) => !l.startsWith('|'))).join('\n');
};

describe('documentation that must agree', () => {
  it("has the same limits table in the README and in docs/security.md", () => {
    const security = limitsTable(read('docs/security.md'));
    expect(security.split('\n').length).toBeGreaterThan(10);
    expect(limitsTable(read('README.md'))).toBe(security);
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
    expect(readme).toMatch(/`npm ci` prints `EBADENGINE`\s+warnings/);
    const [major, minor] = process.versions.node.split('.').map(Number);
    expect(major > Number(min![1]) || (major === Number(min![1]) && minor >= Number(min![2]))).toBe(true);
  });

  it('links only files inside the repository, and every one of them exists', () => {
    let checked = 0;
    for (const file of ['README.md', 'docs/decisions.md', 'docs/security.md', 'docs/spec.md']) {
      const base = join(__dirname, '../..', dirname(file));
      const links = [...read(file).matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/i.test(l));
      for (const link of links) {
        const target = resolve(base, link);
        expect([file, link, relative(join(__dirname, '../..'), target).startsWith('..')]).toEqual([file, link, false]);
        expect([file, link, existsSync(target)]).toEqual([file, link, true]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(4);
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

  it('names the agent program and the WebSocket only as coming, while the repository does not have them', () => {
    const readme = read('README.md');
    const absent = [
      ...(existsSync(join(__dirname, '../../apps/agent')) ? [] : ['apps/agent/']),
      // A server that listens on /rmm/… names that path in a string somewhere in its sources.
      ...(sources('apps/api/src').some((f) => /['"`]\/rmm\/[:{$]/.test(read(f))) ? [] : ['/rmm/{agent_id}/']),
    ];
    for (const line of readme.split('\n').filter((l) => absent.some((a) => l.includes(a)))) {
      const paragraph = readme.slice(Math.max(0, readme.indexOf(line) - 400), readme.indexOf(line) + line.length);
      expect([line, /Agents for real|Monitoring and live events|Not there yet|Not here yet/.test(paragraph)]).toEqual([line, true]);
    }
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
    const docs = ['README.md', ...readdirSync(join(__dirname, '../../docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
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
    expect(read('README.md')).toContain('tee enrollment.json');
  });
});
