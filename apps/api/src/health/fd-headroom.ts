import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Global, Injectable, Logger, Module, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Jobs } from '../common/jobs/jobs';
import { RuntimeConfig } from '../config/runtime-config';

/** How often every open file of the process is counted (/proc/self/fd, read off the event loop). */
const COUNT_EVERY_SECONDS = 5;

/** What /readyz says while new agent connections are refused. */
export interface FdHeadroomState {
  open: number;
  limit: number;
  headroom: number;
}

/**
 * The soft limit on open files (RLIMIT_NOFILE, what `ulimit -n` prints) of this process, from /proc/self/limits;
 * null where there is no such file (macOS, Windows) or it says unlimited.
 */
export function readOpenFileLimit(text?: string): number | null {
  let limits = text;
  if (limits === undefined) {
    try {
      limits = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const m = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(limits);
  return m && m[1] !== 'unlimited' ? Number(m[1]) : null;
}

/** RMM_FD_HEADROOM's default: room for every update's download (a socket and the file) and the rest of the server. */
export const defaultHeadroom = (updateConcurrency: number): number => Math.max(256, 2 * updateConcurrency + 128);

/**
 * Head-room under the open-file limit (issue 30, U2): a fleet of agents that reaches the process's limit would
 * leave it no file to spawn a build, open a binary, write a log or accept an API request (EMFILE). The limit is
 * read at start; the open files are every file of the process counted every COUNT_EVERY_SECONDS (a readdir of
 * /proc/self/fd: about 100 ms at 20,000 files, on libuv's thread pool, never on the event loop), plus the HTTP
 * server's connections opened since (counted as they open and close, for nothing). Once they come within
 * `headroom` of the limit, `admits()` is false: the agent gateway refuses new agent connections (1013 "try again
 * later"; the agent retries with its back-off) until they are below it again. /readyz shows it; the log says so
 * once per change.
 */
@Injectable()
export class FdHeadroom implements OnApplicationBootstrap {
  private readonly logger = new Logger('fd-headroom');
  readonly limit: number | null;
  readonly headroom: number;
  /** Files open at the last count, less the HTTP connections open then. */
  private others = 0;
  /** The HTTP server's open connections, now. */
  private connections = 0;
  private refusing = false;

  constructor(
    config: RuntimeConfig,
    private readonly adapterHost: HttpAdapterHost,
    jobs: Jobs,
  ) {
    this.limit = readOpenFileLimit();
    this.headroom = config.fdHeadroom ?? defaultHeadroom(config.agentUpdateConcurrency);
    if (this.limit !== null && this.headroom > 0) {
      jobs.every('fd-headroom.count', { seconds: COUNT_EVERY_SECONDS, mode: 'every-instance', atStart: true }, () => this.count());
    }
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || this.limit === null || this.headroom === 0) return;
    this.logger.log(`open-file limit ${this.limit} (soft RLIMIT_NOFILE); new agent connections are refused within ${this.headroom} of it (RMM_FD_HEADROOM)`);
    server.on('connection', (socket: Socket) => {
      this.connections++;
      socket.once('close', () => this.connections--);
    });
  }

  /** Files open now, as far as known: the last count's other files and the HTTP connections open now. */
  get open(): number {
    return this.others + this.connections;
  }

  /** Whether a new agent connection may be accepted (false within the head-room). Logs each change, once. */
  admits(): boolean {
    if (this.limit === null || this.headroom === 0) return true;
    // Refused from the line, accepted again only some way below it: the refused connections' own sockets, opening
    // and closing, do not flip it (and its log line) back and forth.
    const line = this.limit - this.headroom;
    const full = this.refusing ? this.open >= line - Math.max(8, Math.floor(this.headroom / 8)) : this.open >= line;
    if (full !== this.refusing) {
      this.refusing = full;
      if (full) {
        this.logger.warn(
          `${this.open} files open of the limit ${this.limit}: within the head-room of ${this.headroom} (RMM_FD_HEADROOM); new agent connections are refused (1013 try again later) until fewer are open`,
        );
      } else {
        this.logger.log(`${this.open} files open of the limit ${this.limit}: agent connections are accepted again`);
      }
    }
    return !full;
  }

  /** For /readyz: the figures while new agent connections are refused; undefined otherwise. */
  state(): FdHeadroomState | undefined {
    if (this.limit === null || !this.refusing) return undefined;
    return { open: this.open, limit: this.limit, headroom: this.headroom };
  }

  private async count(): Promise<void> {
    const connections = this.connections;
    const files = (await readdir('/proc/self/fd')).length - 1; // (readdir's own descriptor of the folder)
    this.others = Math.max(0, files - connections);
    this.admits(); // (a change seen by the count is logged now, not at the next connection)
  }
}

/** FdHeadroom for the agent gateway (which asks it) and /readyz (which shows it). */
@Global()
@Module({ providers: [FdHeadroom], exports: [FdHeadroom] })
export class FdHeadroomModule {}
