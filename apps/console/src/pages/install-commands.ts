// The one-line install commands the Deployments page shows (a file of its own, without JSX: the installer's end-to-end
// test runs the Linux one with sh, as copied).

/** A POSIX shell word that is exactly `value` (as the installer's own quoting). */
const shQuote = (v: string): string => `'${v.replace(/'/g, `'\\''`)}'`;
/** A PowerShell verbatim string that is exactly `value`. */
const psQuote = (v: string): string => `'${v.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;

/** Run as root (the service); through sudo only when not root already (a root shell often has no sudo). */
const AS_ROOT = 'if [ "$(id -u)" = 0 ]; then sh rmm-agent-install.sh; else sudo sh rmm-agent-install.sh; fi';

/**
 * The one-line install commands for a download URL (docs/enrolling.md): download the installer for the
 * platform, then run it as root (the service) or as Administrator on Windows.
 */
export function installCommands(downloadUrl: string): Array<{ platform: string; label: string; command: string }> {
  const url = (p: string) => `${downloadUrl}?platform=${p}`;
  return [
    { platform: 'linux', label: 'Linux', command: `curl -fsSL ${shQuote(url('linux'))} -o rmm-agent-install.sh && ${AS_ROOT}` },
    { platform: 'darwin', label: 'macOS', command: `curl -fsSL ${shQuote(url('darwin'))} -o rmm-agent-install.sh && ${AS_ROOT}` },
    {
      platform: 'windows',
      label: 'Windows',
      command: `Invoke-WebRequest -UseBasicParsing -Uri ${psQuote(url('windows'))} -OutFile rmm-agent-install.ps1; powershell -ExecutionPolicy Bypass -File .\\rmm-agent-install.ps1`,
    },
  ];
}
