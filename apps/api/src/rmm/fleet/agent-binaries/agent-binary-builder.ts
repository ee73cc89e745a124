import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AgentTarget } from '@app/entities';
import { projectRoot } from '../../../common/project-root';
import { RuntimeConfig } from '../../../config/runtime-config';

/** The longest one target's build may take (a single-file compile is seconds; a cold runtime fetch more). */
const BUILD_TIMEOUT_MS = 10 * 60_000;
/** How much of the build's output is kept for the log. */
const OUTPUT_TAIL = 4_000;

/** Builds one target's binary into a folder (its manifest.json updated); rejects with the build's own words. */
@Injectable()
export class AgentBinaryBuilder {
  constructor(private readonly config: RuntimeConfig) {}

  /**
   * `node scripts/build-agent.js --binaries --target T --version V --out DIR` (the build script is safe to run twice
   * at once), with RMM_AGENT_BUILD_NODE or the server's own Node.js. A build that cannot start (EMFILE when the
   * process is out of files, ENOENT, EACCES) rejects: its `error` is listened to before anything else is touched
   * (on EMFILE Node gives the child no stdout/stderr at all, and emits `error` on the next tick).
   */
  build(target: AgentTarget, version: string, outDir: string): Promise<void> {
    const script = join(projectRoot(), 'scripts', 'build-agent.js');
    const args = [script, '--binaries', '--target', target, '--version', version, '--out', outDir];
    const node = this.config.agentBuildNode ?? process.execPath;
    return new Promise((resolve, reject) => {
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: projectRoot() });
      } catch (err) {
        reject(new Error(`could not start the build: ${(err as Error).message}`));
        return;
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
      child.on('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`could not start the build (${node}): ${err.message}`));
      });
      let output = '';
      const keep = (chunk: Buffer): void => {
        output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`the build exited ${signal ?? code}: ${output.trim()}`));
      });
    });
  }
}
