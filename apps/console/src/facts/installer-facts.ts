/**
 * What a device needs to run a deployment's installer: the one source of the console's text about installers.
 * docs/enrolling.md and the README say the same in their words, and test/docs/installer-facts.e2e-spec.ts fails
 * when one of these phrases is no longer in them (or when the binary targets are no longer the server's), so the
 * page and the docs cannot drift apart again (issue #29, point 2).
 */
export const INSTALLER_FACTS = {
  /** The default path: the agent's single-file binary, no Node.js. */
  noNode: 'no Node.js',
  /** The machines that get the binary (libs/protocol AGENT_TARGETS). */
  binaryMachines: 'Linux and macOS (x86_64, arm64) and 64-bit Windows',
  binaryTargets: ['linux-amd64', 'linux-arm64', 'darwin-amd64', 'darwin-arm64', 'windows-amd64'],
  /** The tools the shell installer uses to download and check the binary. */
  tools: 'curl or wget, and sha256sum, shasum or openssl',
  windows: 'PowerShell 5.1 or 7',
  /** The fallback, only where no binary runs. */
  fallback: 'gets the Node.js agent instead and needs Node.js 20 or later',
} as const;

/** The sentence under the install commands on the Deployments page. */
export const INSTALLER_REQUIREMENTS = `The installer puts the agent's single-file binary on ${INSTALLER_FACTS.binaryMachines}: ${INSTALLER_FACTS.noNode} needed, only ${INSTALLER_FACTS.tools} (${INSTALLER_FACTS.windows} on Windows). Another machine (32-bit, riscv64, …) ${INSTALLER_FACTS.fallback}.`;
