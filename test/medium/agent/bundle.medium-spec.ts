import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The agent runs on every device: it checks the server's messages with the protocol's validators generated ahead
 * of time, and carries neither Ajv's compiler nor TypeBox (8–12 MB of memory, ≈ 330 KB of bundle: docs/performance.md).
 * scripts/build-agent.js refuses to write a bundle that either reaches; these build the bundles the same way.
 */
const ROOT = join(__dirname, '..', '..', '..');
const { bundles, buildBundle } = require(join(ROOT, 'scripts', 'build-agent.js')) as {
  bundles: Array<{ entry: string; outfile: string; name: string }>;
  buildBundle(bundle: object): Promise<{ text?: Uint8Array; refused?: string; metafile?: { inputs: Record<string, unknown> } }>;
};
const { forbiddenInputs } = require(join(ROOT, 'scripts', 'agent-bundle-check.js')) as { forbiddenInputs(metafile: object): string[] };

describe("the agent's bundles", () => {
  it.each(bundles.map((b) => [b.name, b]))('%s carries neither Ajv nor TypeBox, and checks messages with the generated validators', async (name, bundle) => {
    const { text, refused, metafile } = await buildBundle(bundle);
    expect(refused).toBeUndefined();
    const inputs = Object.keys(metafile!.inputs);
    expect(inputs.filter((f) => /node_modules\/(ajv|@sinclair\/typebox|fast-uri|json-schema-traverse)\//.test(f) && !f.startsWith('node_modules/ajv/dist/runtime/'))).toEqual([]);
    expect(inputs.filter((f) => /^libs\/protocol\/src\/(messages|validation|index)\.ts$/.test(f))).toEqual([]);
    if (name === 'rmm-agent') {
      expect(inputs).toContain('libs/protocol/src/generated/agent-validators.ts');
      expect(Buffer.from(text!).toString()).toContain('must have required property');
    }
  });

  it('a bundle that imports the protocol\'s schemas is refused, naming what it would carry and through which imports', async () => {
    const result = await build({
      stdin: { contents: "import { SERVER_MESSAGES } from '@app/protocol';\nconsole.log(Object.keys(SERVER_MESSAGES));\n", resolveDir: join(ROOT, 'apps', 'agent', 'src'), sourcefile: 'probe.ts', loader: 'ts' },
      absWorkingDir: ROOT,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const refused = forbiddenInputs(result.metafile);
    expect(refused).toHaveLength(2);
    expect(refused[0]).toMatch(/^Ajv's compiler \(node_modules\/ajv\/dist\/[^)]+\), through apps\/agent\/src\/probe\.ts → libs\/protocol\/src\/index\.ts → libs\/protocol\/src\/validation\.ts → node_modules\/ajv\//);
    expect(refused[1]).toMatch(/^TypeBox \(node_modules\/@sinclair\/typebox\/[^)]+\), through apps\/agent\/src\/probe\.ts → libs\/protocol\/src\/index\.ts → libs\/protocol\/src\/(messages|validation)\.ts → node_modules\/@sinclair\/typebox\//);
  });
});
