import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AgentTarget } from '@app/entities';
import { projectRoot } from '../../../common/project-root';

/** The longest one target's build may take (a single-file compile is seconds; a cold runtime fetch more). */
const BUILD_TIMEOUT_MS = 10 * 60_000;
/** How much of the build's output is kept for the log. */
const OUTPUT_TAIL = 4_000;

/** Builds one target's binary into a folder (its manifest.json updated); rejects with the build's own words. */
@Injectable()
export class AgentBinaryBuilder {
  /** `node scripts/build-agent.js --binaries --target T --version V --out DIR` (the build script is safe to run twice at once). */
  build(target: AgentTarget, version: string, outDir: string): Promise<void> {
    const script = join(projectRoot(), 'scripts', 'build-agent.js');
    const args = [script, '--binaries', '--target', target, '--version', version, '--out', outDir];
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: projectRoot() });
      let output = '';
      const keep = (chunk: Buffer): void => {
        output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(new Error(`could not start the build: ${err.message}`));
      });
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`the build exited ${signal ?? code}: ${output.trim()}`));
      });
    });
  }
}
