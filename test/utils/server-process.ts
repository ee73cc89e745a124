import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { cleanEnv, freePort, MAIN_JS, startMain } from './processes';

/** The real server (dist/apps/api/src/main.js) as a child process, with what /proc says about it. */
export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  pid: number;
  /** Resident memory now (VmRSS of /proc/<pid>/status), in MiB. */
  rssMiB(): number;
  /**
   * The TCP connections the process holds open on its own port (sockets among its file descriptors), keyed by
   * the peer's port, from /proc: a connection the server has dropped is no longer among them, even when the
   * kernel still has it (an orphan waiting to send its last bytes).
   */
  connections(): Map<number, string>;
  /** Everything the server wrote on stdout and stderr. */
  output(): string;
  /** The exit code once it has exited (null while it runs: a server that died on a message shows here). */
  exitCode(): number | null;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the real server on 127.0.0.1 and a free port, or `options.port` (a restart on the address its agents
 * know) (HOST and PORT are set here; give DATABASE_URL, keys and the rest in `env`), and waits until /healthz answers.
 * `prefix`: a command the server is started through, which execs it in the same process (e.g.
 * `['prlimit', '--nofile=400:400']`: the server then runs with that open-file limit).
 */
export async function startServerProcess(env: Record<string, string>, options: { port?: number; prefix?: string[] } = {}): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const command: [string, ...string[]] | undefined = options.prefix?.length ? [options.prefix[0], ...options.prefix.slice(1), process.execPath, MAIN_JS] : undefined;
  const started = await startMain(cleanEnv({ LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env, HOST: '127.0.0.1', PORT: String(port) }), url, 60_000, { command });
  const pid = started.child.pid!;
  return {
    url,
    port,
    pid,
    rssMiB: () => rssMiB(pid),
    connections: () => connections(pid, port),
    output: started.output,
    exitCode: () => started.child.exitCode ?? (started.child.signalCode ? -1 : null),
    stop: started.stop,
  };
}

/** VmRSS of a process, in MiB. */
export function rssMiB(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) / 1024;
}

/** TCP states as /proc/net/tcp writes them. */
const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

function connections(pid: number, port: number): Map<number, string> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  const found = new Map<number, string>();
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9])) continue;
      const localPort = parseInt(f[1].split(':')[1], 16);
      if (localPort !== port || f[3] === '0A') continue;
      found.set(parseInt(f[2].split(':')[1], 16), TCP_STATES[f[3]] ?? f[3]);
    }
  }
  return found;
}

/** What a call to the server answered: its status and its JSON body (null when empty). */
export interface Answer {
  status: number;
  body: any;
}

/** A JSON client of the server's HTTP API with one X-API-KEY (fetch: the process under test is another process). */
export function apiClient(url: string, key: string): (method: string, path: string, body?: unknown) => Promise<Answer> {
  return async (method, path, body) => {
    const res = await fetch(`${url}${path}`, { method, headers: { 'X-API-KEY': key, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}

/** Registers an agent in the default tenant through a fresh deployment; its id and secret. */
export async function enrollAgent(url: string, api: ReturnType<typeof apiClient>, hostname: string): Promise<{ agentId: string; secret: string }> {
  const clients = (await api('GET', '/api/v3/clients/')).body as Array<{ id: number; sites: Array<{ id: number }> }>;
  const d = await api('POST', '/api/v3/agents/deployments/', { client: clients[0].id, site: clients[0].sites[0].id });
  const r = await fetch(`${url}/agent/v1/register`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${d.body.uuid}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ hostname, plat: 'linux', version: '0.1.0' }),
  });
  const reg = (await r.json()) as { agent_id: string; agent_secret: string };
  return { agentId: reg.agent_id, secret: reg.agent_secret };
}
