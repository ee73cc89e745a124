import { closeSync, openSync } from 'node:fs';
import { RuntimeConfig } from '../../../apps/api/src/config/runtime-config';
import { AgentBinaryBuilder } from '../../../apps/api/src/rmm/fleet/agent-binaries/agent-binary-builder';

const builder = (agentBuildNode?: string): AgentBinaryBuilder => new AgentBinaryBuilder(Object.assign(new RuntimeConfig(), { agentBuildNode }));

describe('U2: AgentBinaryBuilder, a build that cannot start', () => {
  it('rejects (never an unhandled error event) when the build command does not exist', async () => {
    await expect(builder('/nonexistent/rmm-test/node').build('linux-amd64', '0.0.1', '/nonexistent/out')).rejects.toThrow(
      /could not start the build \(\/nonexistent\/rmm-test\/node\): spawn \/nonexistent\/rmm-test\/node ENOENT/,
    );
  });

  it('rejects with EMFILE when the process is out of files (Node gives the child no stdout then): the process lives on', async () => {
    // The probe's crash: "Cannot read properties of undefined (reading 'on')", then "spawn … EMFILE … Unhandled
    // 'error' event". This worker's open files are used up for real, then the build is asked for.
    const held: number[] = [];
    let err: unknown;
    try {
      for (;;) {
        try {
          held.push(openSync('/dev/null', 'r'));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EMFILE') break;
          throw e;
        }
      }
      err = await builder().build('linux-amd64', '0.0.1', '/nonexistent/out').then(
        () => undefined,
        (e: unknown) => e,
      );
    } finally {
      for (const fd of held) closeSync(fd);
    }
    expect(held.length).toBeGreaterThan(0);
    expect((err as Error)?.message).toMatch(/could not start the build .*EMFILE/);
  });
});
