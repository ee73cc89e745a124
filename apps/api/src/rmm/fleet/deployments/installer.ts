import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DeploymentEntity } from '@app/entities';

/**
 * The installer a deployment's download URL serves: a POSIX shell script (linux, darwin) or a PowerShell
 * script (windows) carrying the server URL, the deployment token and the server's update key, which downloads
 * the agent's single-file binary for the machine (GET /agent/v1/download/{target}), checks its SHA-256,
 * registers it and installs it as a service; no Node.js needed. A machine with no binary target (another CPU)
 * gets the Node.js agent instead (GET /agent/v1/rmm-agent.js, Node.js 20+). An operator may put native
 * installers in RMM_INSTALLERS_DIR (openNativeInstaller): those are served as they are, read from disk as they
 * are sent, and get the token through their file name (docs/decisions.md, "Agents").
 */
export interface Installer {
  filename: string;
  contentType: string;
  /** A script's text, or a native installer's bytes as a stream of its open file. */
  body: string | Readable;
  /** The size of a streamed body in bytes (Content-Length). */
  size?: number;
}

export const INSTALLER_PLATFORMS = ['linux', 'darwin', 'windows'] as const;
export type InstallerPlatform = (typeof INSTALLER_PLATFORMS)[number];

/** `?platform=` when given, else from the User-Agent: PowerShell's (Invoke-WebRequest) → windows, anything else → linux. */
export function choosePlatform(platform: InstallerPlatform | undefined, userAgent: string | null): InstallerPlatform {
  if (platform) return platform;
  return userAgent && /powershell/i.test(userAgent) ? 'windows' : 'linux';
}

/** A POSIX sh word that is exactly `value`: single quotes, each `'` written as `'\''` (nothing is special inside). */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A PowerShell verbatim string that is exactly `value`: single quotes, each quote character doubled. PowerShell
 * also ends a single-quoted string at the typographic quotes U+2018–U+201B, so those are doubled too.
 */
export function psQuote(value: string): string {
  return `'${value.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}

/** The arch an installer runs on, without the -mac suffix the spec's deployments carry. */
const baseArch = (arch: string): string => arch.replace(/-mac$/, '');

/** Native installer extensions looked for in RMM_INSTALLERS_DIR, in order. */
const NATIVE_EXTENSIONS: Record<InstallerPlatform, string[]> = { windows: ['msi', 'exe'], darwin: ['pkg'], linux: ['run', 'deb', 'rpm'] };

/**
 * `<dir>/<platform>-<arch>.<ext>` (e.g. windows-amd64.msi, darwin-arm64.pkg, linux-amd64.run), the first that is a
 * file and opens: opened, with its size, as a stream that reads it from disk as it is sent (and closes it at its
 * end or when it is destroyed). Open, the file is the one measured even if it is removed or replaced meanwhile;
 * a name that is gone, not a file or not readable is passed over.
 */
export async function openNativeInstaller(dir: string | undefined, platform: InstallerPlatform, arch: string): Promise<{ ext: string; size: number; stream: Readable } | null> {
  if (!dir) return null;
  for (const ext of NATIVE_EXTENSIONS[platform]) {
    const file = await open(join(dir, `${platform}-${baseArch(arch)}.${ext}`), 'r').catch(() => null);
    if (!file) continue;
    const stat = await file.stat().catch(() => null);
    if (!stat?.isFile()) {
      await file.close().catch(() => undefined);
      continue;
    }
    if (stat.size === 0) {
      await file.close().catch(() => undefined);
      return { ext, size: 0, stream: Readable.from([]) };
    }
    // Exactly the bytes measured: a file that grows meanwhile does not overrun Content-Length.
    return { ext, size: stat.size, stream: file.createReadStream({ start: 0, end: stat.size - 1 }) };
  }
  return null;
}

/**
 * `updateKey`: the server's public Ed25519 key (base64), which the agent keeps to check update offers with.
 * `requestedHostname`: the hostname the enrollment function was asked for when it made this deployment (the
 * server registers the device under it); the script says so before registering ("registering as ACME-WS-01
 * (this machine: vm)"). Null for a deployment made directly: the device registers under its own name.
 */
export async function buildInstaller(
  d: DeploymentEntity,
  serverUrl: string,
  platform: InstallerPlatform,
  updateKey: string,
  installersDir?: string,
  requestedHostname: string | null = null,
): Promise<Installer> {
  const native = await openNativeInstaller(installersDir, platform, d.arch);
  if (native) {
    // The file cannot carry the token: its name does (rmm-agent-<token>.<ext>); the installer reads it from there.
    return { filename: `rmm-agent-${d.uuid}.${native.ext}`, contentType: 'application/octet-stream', body: native.stream, size: native.size };
  }
  const short = d.uuid.slice(0, 8);
  const vars: ScriptValues = { d, serverUrl, updateKey, requested: requestedHostname };
  if (platform === 'windows') {
    return { filename: `rmm-agent-install-${short}.ps1`, contentType: 'text/plain; charset=utf-8', body: powershellInstaller(vars) };
  }
  return { filename: `rmm-agent-install-${platform}-${short}.sh`, contentType: 'text/x-shellscript; charset=utf-8', body: shellInstaller(vars) };
}

/** The command line a service runs: the binary (or the Node.js agent's wrapper) in the foreground, restarted by its service manager. */
const SERVICE_ARGS = ['run', '--service', '--prefix'];

/**
 * The systemd unit /etc/systemd/system/rmm-agent.service for an installation in `prefix`. Restarted on failure
 * (exit 10, "updated: restart me", included) after 5 s; not after 0 (uninstalled), 4 (a requirement is missing)
 * or 64 (wrong usage), which a restart cannot mend. Each word is quoted as systemd reads it (`\`, `"` escaped,
 * `%` doubled).
 */
export function systemdUnit(prefix: string): string {
  const word = (value: string): string => `"${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/%/g, '%%')}"`;
  return `[Unit]
Description=RMM agent
After=network-online.target
Wants=network-online.target

[Service]
ExecStart=${word(`${prefix}/bin/rmm-agent`)} ${SERVICE_ARGS.join(' ')} ${word(prefix)}
Restart=on-failure
RestartSec=5
RestartPreventExitStatus=4 64

[Install]
WantedBy=multi-user.target
`;
}

/**
 * The launchd job com.rmm.agent for an installation in `prefix` (/Library/LaunchDaemons as root, else the user's
 * ~/Library/LaunchAgents): started at load, started again after any exit but a successful one (0: uninstalled).
 */
export function launchdPlist(prefix: string): string {
  const xml = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const args = [`${prefix}/bin/rmm-agent`, ...SERVICE_ARGS, prefix].map((a) => `<string>${xml(a)}</string>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key><string>com.rmm.agent</string>
  <key>ProgramArguments</key><array>${args}</array>
  <key>RunAtLoad</key><true/>
  <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>
  <key>StandardErrorPath</key><string>${xml(`${prefix}/agent.log`)}</string>
</dict>
</plist>
`;
}

interface ScriptValues {
  d: DeploymentEntity;
  serverUrl: string;
  updateKey: string;
  requested: string | null;
}

/** The header's line about the name the device registers under (the requested name itself is never in a comment). */
function nameNote(requested: string | null, names: { registered: string; override: string }): string {
  return requested === null
    ? `${names.override} overrides the hostname.`
    : `The device registers under the hostname requested for this deployment (${names.registered} below); ${names.override} overrides the machine's name it reports.`;
}

/*
 * The shell installer. Text inside the two unquoted here-documents (the unit and the plist) is expanded by sh:
 * systemdUnit('$PREFIX') and launchdPlist('$PREFIX') hold no `$`, backquote or backslash but that placeholder,
 * and a prefix outside [A-Za-z0-9_./+-] gets no service, so what sh writes is exactly systemdUnit(PREFIX).
 */
function shellInstaller({ d, serverUrl, updateKey, requested }: ScriptValues): string {
  return `#!/bin/sh
# RMM agent installer (linux, macOS). Deployment ${d.uuid.slice(0, 8)}…, valid until ${d.expiresAt.toISOString()}.
# Usage: sh rmm-agent-install.sh [--prefix DIR] [--no-service] [--no-start]
# On Linux (x86_64, arm64) and macOS (Intel, Apple silicon) it installs the agent's single-file binary: it needs
# curl or wget, and sha256sum, shasum or openssl, nothing else. On another machine it installs the Node.js agent,
# which needs Node.js 20 or later as \`node\`. ${nameNote(requested, { registered: 'RMM_HOSTNAME', override: 'RMM_AGENT_HOSTNAME' })}
# Exit codes: 0 installed; 1 failure; 2 unknown deployment; 3 deployment revoked, expired or used up; 4 a
# requirement is missing; 5 the hostname is enrolled by another device; 64 wrong usage.
# It starts the agent: as a service (systemd as root, launchd), else in the background ($PREFIX/agent.log,
# $PREFIX/agent.pid; \`rmm-agent stop\` stops it). --no-service: no service, nothing started; --no-start: nothing
# started now (a service is installed and enabled, and starts at the next boot).
set -u
RMM_SERVER=${shQuote(serverUrl)}
RMM_TOKEN=${shQuote(d.uuid)}
# The server's public key (Ed25519, base64): the agent installs only updates signed with it
RMM_UPDATE_KEY=${shQuote(updateKey)}
# The name the agent registers under, and the machine's own (what the agent reports as its hostname)
THIS_MACHINE=\${RMM_AGENT_HOSTNAME:-$(uname -n)}
${requested === null ? 'RMM_HOSTNAME=$THIS_MACHINE' : `RMM_HOSTNAME=${shQuote(requested)}`}
PREFIX=/opt/rmm-agent
SERVICE=1
START=1
USAGE="sh $0 [--prefix DIR] [--no-service] [--no-start]"

say() { printf 'rmm-agent installer: %s\\n' "$*" >&2; }
die() { code=$1; shift; say "$*"; exit "$code"; }
# a value as one single-quoted sh word
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\\\\\''/g")"; }

while [ $# -gt 0 ]; do
  case $1 in
    --prefix) [ $# -ge 2 ] && [ -n "$2" ] || die 64 "--prefix needs a directory"; PREFIX=$2; shift 2 ;;
    --prefix=*) PREFIX=\${1#--prefix=}; [ -n "$PREFIX" ] || die 64 "--prefix needs a directory"; shift ;;
    --no-service) SERVICE=0; shift ;;
    --no-start) START=0; shift ;;
    -h|--help) printf 'usage: %s\\n' "$USAGE"; exit 0 ;;
    *) die 64 "unknown option: $1 (usage: $USAGE)" ;;
  esac
done
case $PREFIX in /*) ;; *) PREFIX=$(pwd)/$PREFIX ;; esac

# The agent binary this machine runs (none: the Node.js agent)
case $(uname -sm) in
  'Linux x86_64'|'Linux amd64') TARGET=linux-amd64 ;;
  'Linux aarch64'|'Linux arm64') TARGET=linux-arm64 ;;
  'Darwin x86_64') TARGET=darwin-amd64
    # a shell under Rosetta on Apple silicon says x86_64: the native binary is the one to install
    [ "$(sysctl -in sysctl.proc_translated 2>/dev/null)" = 1 ] && TARGET=darwin-arm64 ;;
  'Darwin arm64') TARGET=darwin-arm64 ;;
  *) TARGET= ;;
esac

# Requirements (the Node.js agent needs Node.js 20 or later)
NODE=
need_node() {
  NODE=$(command -v node 2>/dev/null) || die 4 "$1Node.js 20 or later is required as 'node' on the PATH: install it, then run this installer again"
  NODE_MAJOR=$("$NODE" -p 'process.versions.node.split(".")[0]' 2>/dev/null) || NODE_MAJOR=0
  case $NODE_MAJOR in ''|*[!0-9]*) NODE_MAJOR=0 ;; esac
  [ "$NODE_MAJOR" -ge 20 ] || die 4 "$1Node.js 20 or later is required; $NODE is $("$NODE" --version 2>/dev/null || echo 'not runnable')"
}
[ -n "$TARGET" ] || need_node "no agent binary for this machine ($(uname -sm)): "
if command -v curl >/dev/null 2>&1; then
  fetch() { curl -fsS --proto '=http,https' --max-time 300 -o "$2" "$1"; }
  # the binary: gzip-compressed when the server has it (curl decodes it), the headers kept for the checksum
  fetch_binary() { curl -fsS --proto '=http,https' --compressed --max-time 1800 -D "$3" -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q -T 300 -O "$2" "$1"; }
  fetch_binary() { wget -q -S -T 300 -O "$2" "$1" 2>"$3"; }
else
  die 4 "curl or wget is required to download the agent: install one, then run this installer again"
fi
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d ' ' -f 1
  else openssl dgst -sha256 "$1" | sed 's/^.*= *//'
  fi
}
if [ -n "$TARGET" ] && ! command -v sha256sum >/dev/null 2>&1 && ! command -v shasum >/dev/null 2>&1 && ! command -v openssl >/dev/null 2>&1; then
  die 4 "sha256sum, shasum or openssl is required to check the agent: install one, then run this installer again"
fi

# The agent
umask 077
if [ ! -d "$PREFIX" ]; then mkdir -p "$PREFIX" || die 1 "cannot create $PREFIX"; chmod 700 "$PREFIX"; fi
mkdir -p "$PREFIX/bin" || die 1 "cannot create $PREFIX/bin"
AGENT=$PREFIX/bin/rmm-agent
STAGED=
if [ -n "$TARGET" ]; then
  URL=$RMM_SERVER/agent/v1/download/$TARGET
  STAGED=$AGENT.download.$$
  HEADERS=$AGENT.headers.$$
  say "downloading the agent for $TARGET from $URL"
  if ! fetch_binary "$URL" "$STAGED" "$HEADERS"; then rm -f "$STAGED" "$HEADERS"; die 1 "could not download the agent from $URL"; fi
  WANT=$(tr -d '\\r' < "$HEADERS" | tr 'A-Z' 'a-z' | sed -n 's/^ *x-checksum-sha256: *\\([0-9a-f]\\{64\\}\\) *$/\\1/p' | tail -n 1)
  rm -f "$HEADERS"
  [ -n "$WANT" ] || { rm -f "$STAGED"; die 1 "the server sent no X-Checksum-Sha256 with the agent: it cannot be checked"; }
  GOT=$(sha256_of "$STAGED")
  [ "$GOT" = "$WANT" ] || { rm -f "$STAGED"; die 1 "the downloaded agent is damaged (SHA-256 $GOT, the server says $WANT): run this installer again"; }
  chmod 755 "$STAGED"
  if ! "$STAGED" --version >/dev/null 2>&1; then
    rm -f "$STAGED"
    STAGED=
    need_node "the agent binary for $TARGET does not run on this system: "
    say "the agent binary for $TARGET does not run on this system: installing the Node.js agent instead"
  fi
fi
if [ -z "$STAGED" ]; then
  mkdir -p "$PREFIX/lib" || die 1 "cannot create $PREFIX/lib"
  AGENT_JS=$PREFIX/lib/rmm-agent.js
  TMP=$AGENT_JS.download.$$
  say "downloading the agent from $RMM_SERVER/agent/v1/rmm-agent.js"
  if ! fetch "$RMM_SERVER/agent/v1/rmm-agent.js" "$TMP"; then rm -f "$TMP"; die 1 "could not download the agent from $RMM_SERVER/agent/v1/rmm-agent.js"; fi
  mv -f "$TMP" "$AGENT_JS" || die 1 "cannot write $AGENT_JS"
fi

# Registration (the agent writes $PREFIX/state.json, mode 0600, and prints the agent id). A state.json of an
# earlier installation in this prefix is left in place: the agent sends its secret to prove it is the same device.
if [ -n "\${RMM_AGENT_HOSTNAME:-}" ]; then export RMM_AGENT_HOSTNAME; fi
${requested === null ? 'say "registering as $RMM_HOSTNAME"' : 'say "registering as $RMM_HOSTNAME (this machine: $THIS_MACHINE)"'}
if [ -n "$STAGED" ]; then
  AGENT_ID=$("$STAGED" register --server "$RMM_SERVER" --token "$RMM_TOKEN" --prefix "$PREFIX" --update-key "$RMM_UPDATE_KEY")
else
  AGENT_ID=$("$NODE" "$AGENT_JS" register --server "$RMM_SERVER" --token "$RMM_TOKEN" --prefix "$PREFIX")
fi
rc=$?
[ "$rc" = 0 ] || { [ -z "$STAGED" ] || rm -f "$STAGED"; }
case $rc in
  0) ;;
  2) die 2 "registration refused: the server knows no such deployment (unknown deployment); ask for a new installer" ;;
  3) die 3 "registration refused: this installer's deployment was revoked, has expired or is used up (see above); ask for a new installer" ;;
  5) die 5 "registration refused: the hostname $RMM_HOSTNAME is already enrolled by another device (see above). If this is a reinstall of that device, ask an operator to allow re-enrollment of the agent $RMM_HOSTNAME (the console's agent page, Allow re-enrollment; or POST /api/v3/agents/{id}/reenroll/) and run this installer again within 24 hours, or to delete the old agent" ;;
  *) die 1 "registration failed (the agent exited $rc; see above)" ;;
esac
say "registered as agent $AGENT_ID ($RMM_HOSTNAME)"

if [ -n "$STAGED" ]; then
  # bin/rmm-agent: the binary itself (its commands take --prefix; the service passes it)
  mv -f "$STAGED" "$AGENT" || die 1 "cannot write $AGENT"
  rm -f "$PREFIX/lib/rmm-agent.js"
else
  # bin/rmm-agent: run, status, register with this prefix
  cat > "$AGENT" <<EOF || die 1 "cannot write $AGENT"
#!/bin/sh
exec $(q "$NODE") $(q "$AGENT_JS") "\\$@" --prefix $(q "$PREFIX")
EOF
  chmod 755 "$AGENT"
fi

# The service: it runs "$PREFIX/bin/rmm-agent" ${SERVICE_ARGS.join(' ')} "$PREFIX"
manual() { say "installed; start the agent with: $AGENT start (in the background), or $AGENT run (in the foreground)"; exit 0; }
# No service manager: the agent in the background (bin/rmm-agent start: log agent.log, pid agent.pid), not at boot
background() {
  [ "$START" = 1 ] || { say "installed, not started (--no-start); start the agent with: $AGENT start"; exit 0; }
  "$AGENT" start --prefix "$PREFIX" || die 1 "installed, but the agent did not start (see $PREFIX/agent.log); start it with: $AGENT start"
  say "installed and started in the background (log $PREFIX/agent.log); it does not start again at boot: $AGENT status, $AGENT stop"
  exit 0
}
[ "$SERVICE" = 1 ] || manual
case $PREFIX in *[!A-Za-z0-9_./+-]*) say "not installing a service: the prefix has characters a service definition cannot hold"; background ;; esac
case $(uname -s) in
  Linux)
    if ! command -v systemctl >/dev/null 2>&1 || [ ! -d /run/systemd/system ]; then say "not installing a service: systemd is not running here"; background; fi
    [ "$(id -u)" = 0 ] || { say "not installing a service: run as root for the systemd unit"; background; }
    cat > /etc/systemd/system/rmm-agent.service <<EOF || die 1 "cannot write /etc/systemd/system/rmm-agent.service"
${systemdUnit('$PREFIX')}EOF
    chmod 644 /etc/systemd/system/rmm-agent.service
    if [ "$START" = 0 ]; then
      systemctl daemon-reload && systemctl enable rmm-agent.service || die 1 "could not enable the systemd service rmm-agent"
      say "installed, not started (--no-start): systemd service rmm-agent, enabled (systemctl start rmm-agent)"
      exit 0
    fi
    systemctl daemon-reload && systemctl enable rmm-agent.service && systemctl restart rmm-agent.service \\
      || die 1 "could not start the systemd service rmm-agent"
    say "installed and started: systemd service rmm-agent (systemctl status rmm-agent)"
    ;;
  Darwin)
    if [ "$(id -u)" = 0 ]; then PLIST=/Library/LaunchDaemons/com.rmm.agent.plist; else mkdir -p "$HOME/Library/LaunchAgents"; PLIST=$HOME/Library/LaunchAgents/com.rmm.agent.plist; fi
    cat > "$PLIST" <<EOF || die 1 "cannot write $PLIST"
${launchdPlist('$PREFIX')}EOF
    chmod 644 "$PLIST"
    launchctl unload "$PLIST" >/dev/null 2>&1
    if [ "$START" = 0 ]; then say "installed, not started (--no-start): launchd job com.rmm.agent ($PLIST), loaded at the next boot (or: launchctl load -w $PLIST)"; exit 0; fi
    launchctl load -w "$PLIST" || die 1 "could not load $PLIST"
    say "installed and started: launchd job com.rmm.agent ($PLIST)"
    ;;
  *) say "not installing a service on $(uname -s)"; background ;;
esac
exit 0
`;
}

function powershellInstaller({ d, serverUrl, updateKey, requested }: ScriptValues): string {
  return `# RMM agent installer (Windows, PowerShell 5.1 or 7). Deployment ${d.uuid.slice(0, 8)}..., valid until ${d.expiresAt.toISOString()}.
# Usage: powershell -ExecutionPolicy Bypass -File rmm-agent-install.ps1 [-Prefix DIR] [-NoService]
# On 64-bit Windows it installs the agent's single-file binary, run at start-up by the scheduled task rmm-agent: nothing else is needed.
# On 32-bit Windows (or where the binary does not run) it installs the Node.js agent, which needs Node.js 20 or
# later as node.exe on the PATH, as a scheduled task. ${nameNote(requested, { registered: '$RmmHostname', override: '$env:RMM_AGENT_HOSTNAME' })}
# Exit codes: 0 installed; 1 failure; 2 unknown deployment; 3 deployment revoked, expired or used up; 4 a requirement is missing;
# 5 the hostname is enrolled by another device.
param(
  [string]$Prefix = (Join-Path $env:ProgramFiles 'rmm-agent'),
  [switch]$NoService
)
$ErrorActionPreference = 'Stop'
# Invoke-WebRequest's progress bar makes a large download many times slower in Windows PowerShell 5.1
$ProgressPreference = 'SilentlyContinue'
$RmmServer = ${psQuote(serverUrl)}
$RmmToken = ${psQuote(d.uuid)}
# The server's public key (Ed25519, base64): the agent installs only updates signed with it
$RmmUpdateKey = ${psQuote(updateKey)}
# The name the agent registers under, and the machine's own (what the agent reports as its hostname)
$ThisMachine = if ($env:RMM_AGENT_HOSTNAME) { $env:RMM_AGENT_HOSTNAME } else { [System.Net.Dns]::GetHostName() }
${requested === null ? '$RmmHostname = $ThisMachine' : `$RmmHostname = ${psQuote(requested)}`}

function Say([string]$Message) { [Console]::Error.WriteLine("rmm-agent installer: $Message") }
function Fail([int]$Code, [string]$Message) { Say $Message; exit $Code }
function Get-Node([string]$Why) {
  $nodeCmd = Get-Command node -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
  if (-not $nodeCmd) { Fail 4 "$($Why)Node.js 20 or later is required as 'node' on the PATH: install it, then run this installer again" }
  $major = 0
  try { $major = [int](& $nodeCmd.Source -p 'process.versions.node.split(".")[0]') } catch { $major = 0 }
  if ($major -lt 20) { Fail 4 "$($Why)Node.js 20 or later is required; $($nodeCmd.Source) is not" }
  return $nodeCmd.Source
}

# The agent binary this machine runs: 64-bit Windows runs windows-amd64 (Windows 11 on arm64 through its x64
# emulation); else the Node.js agent
$Target = if ([Environment]::Is64BitOperatingSystem) { 'windows-amd64' } else { $null }
$Node = $null
if (-not $Target) { $Node = Get-Node 'no agent binary for 32-bit Windows: ' }

# The agent
$Prefix = [System.IO.Path]::GetFullPath($Prefix)
if ($Prefix.Length -gt 3) { $Prefix = $Prefix.TrimEnd('\\') }
$lib = Join-Path $Prefix 'lib'
$bin = Join-Path $Prefix 'bin'
New-Item -ItemType Directory -Force -Path $bin | Out-Null
[Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12
$Exe = Join-Path $bin 'rmm-agent.exe'
$Staged = $null
if ($Target) {
  $url = "$RmmServer/agent/v1/download/$Target"
  $Staged = Join-Path $bin 'rmm-agent.download.exe'
  Say "downloading the agent for $Target from $url"
  try {
    $response = Invoke-WebRequest -UseBasicParsing -Uri $url -OutFile $Staged -PassThru -TimeoutSec 1800
  } catch {
    Remove-Item -Force -ErrorAction SilentlyContinue $Staged
    Fail 1 "could not download the agent from $($url): $($_.Exception.Message)"
  }
  $want = "$(@($response.Headers['X-Checksum-Sha256'])[0])".Trim().ToLowerInvariant()
  if ($want -notmatch '^[0-9a-f]{64}$') {
    Remove-Item -Force -ErrorAction SilentlyContinue $Staged
    Fail 1 'the server sent no X-Checksum-Sha256 with the agent: it cannot be checked'
  }
  $got = (Get-FileHash -Algorithm SHA256 -LiteralPath $Staged).Hash.ToLowerInvariant()
  if ($got -ne $want) {
    Remove-Item -Force -ErrorAction SilentlyContinue $Staged
    Fail 1 "the downloaded agent is damaged (SHA-256 $got, the server says $want): run this installer again"
  }
  $runs = $false
  try { & $Staged --version *> $null; $runs = ($LASTEXITCODE -eq 0) } catch { $runs = $false }
  if (-not $runs) {
    Remove-Item -Force -ErrorAction SilentlyContinue $Staged
    $Staged = $null
    $Node = Get-Node "the agent binary for $Target does not run on this system: "
    Say "the agent binary for $Target does not run on this system: installing the Node.js agent instead"
  }
}
if (-not $Staged) {
  New-Item -ItemType Directory -Force -Path $lib | Out-Null
  $AgentJs = Join-Path $lib 'rmm-agent.js'
  $tmp = "$AgentJs.download"
  Say "downloading the agent from $RmmServer/agent/v1/rmm-agent.js"
  try {
    Invoke-WebRequest -UseBasicParsing -Uri "$RmmServer/agent/v1/rmm-agent.js" -OutFile $tmp -TimeoutSec 300
    Move-Item -Force -Path $tmp -Destination $AgentJs
  } catch {
    Remove-Item -Force -ErrorAction SilentlyContinue $tmp
    Fail 1 "could not download the agent from $RmmServer/agent/v1/rmm-agent.js: $($_.Exception.Message)"
  }
}

# Registration (the agent writes state.json under the prefix and prints the agent id). A state.json of an
# earlier installation in this prefix is left in place: the agent sends its secret to prove it is the same device.
${requested === null ? 'Say "registering as $RmmHostname"' : 'Say "registering as $RmmHostname (this machine: $ThisMachine)"'}
$ErrorActionPreference = 'Continue'
if ($Staged) {
  $agentId = & $Staged register --server $RmmServer --token $RmmToken --prefix $Prefix --update-key $RmmUpdateKey
} else {
  $agentId = & $Node $AgentJs register --server $RmmServer --token $RmmToken --prefix $Prefix
}
$rc = $LASTEXITCODE
$ErrorActionPreference = 'Stop'
if ($rc -ne 0 -and $Staged) { Remove-Item -Force -ErrorAction SilentlyContinue $Staged }
switch ($rc) {
  0 { }
  2 { Fail 2 'registration refused: the server knows no such deployment (unknown deployment); ask for a new installer' }
  3 { Fail 3 "registration refused: this installer's deployment was revoked, has expired or is used up (see above); ask for a new installer" }
  5 { Fail 5 "registration refused: the hostname $RmmHostname is already enrolled by another device (see above). If this is a reinstall of that device, ask an operator to allow re-enrollment of the agent $RmmHostname (the console's agent page, Allow re-enrollment; or POST /api/v3/agents/{id}/reenroll/) and run this installer again within 24 hours, or to delete the old agent" }
  default { Fail 1 "registration failed (the agent exited $rc; see above)" }
}
Say "registered as agent $agentId ($RmmHostname)"
# Only SYSTEM and Administrators may read the prefix (state.json holds the agent's secret)
& icacls.exe $Prefix /inheritance:r /grant:r '*S-1-5-18:(OI)(CI)F' '*S-1-5-32-544:(OI)(CI)F' | Out-Null

$admin = ([Security.Principal.WindowsPrincipal][Security.Principal.WindowsIdentity]::GetCurrent()).IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)
$serviceName = 'rmm-agent'
$service = Get-Service -Name $serviceName -ErrorAction SilentlyContinue
if ($Staged) {
  # An earlier installation's task (or service) holds the old binary open: stop it before replacing the file
  if ($service -and $service.Status -ne 'Stopped') { Stop-Service -Name $serviceName -Force }
  if ($admin) {
    Stop-ScheduledTask -TaskName $serviceName -ErrorAction SilentlyContinue
    Unregister-ScheduledTask -TaskName $serviceName -Confirm:$false -ErrorAction SilentlyContinue
  }
  Move-Item -Force -Path $Staged -Destination $Exe
  Remove-Item -Force -ErrorAction SilentlyContinue (Join-Path $lib 'rmm-agent.js')
  $run = "& '$Exe' run --prefix '$Prefix'"
} else {
  # bin\\rmm-agent.cmd: run, status, register with this prefix
  $cmd = "@echo off\`r\`n\`"$Node\`" \`"$AgentJs\`" %* --prefix \`"$Prefix\`"\`r\`n"
  [System.IO.File]::WriteAllText((Join-Path $bin 'rmm-agent.cmd'), $cmd, (New-Object System.Text.ASCIIEncoding))
  $run = "$(Join-Path $bin 'rmm-agent.cmd') run"
}

if ($NoService) { Say "installed; start the agent with: $run"; exit 0 }
if (-not $admin) { Say "not installing a service: run as Administrator (or use -NoService)"; Say "start the agent with: $run"; exit 0 }

# A scheduled task at start-up, as SYSTEM, restarted a minute after a failure. Not a Windows service: neither the
# agent binary nor node.exe speaks the service control protocol, and the service manager stops a service that does
# not within 30 s (error 1053; docs/decisions.md, "Windows: a scheduled task, not a service"). The binary runs
# with --service: after an update it exits 10 and the task starts the new binary.
if ($service) { Stop-Service -Name $serviceName -Force -ErrorAction SilentlyContinue; & sc.exe delete $serviceName | Out-Null }
Unregister-ScheduledTask -TaskName $serviceName -Confirm:$false -ErrorAction SilentlyContinue
if ($Staged) {
  $action = New-ScheduledTaskAction -Execute $Exe -Argument "${SERVICE_ARGS.join(' ')} \`"$Prefix\`""
} else {
  $action = New-ScheduledTaskAction -Execute $Node -Argument "\`"$AgentJs\`" run --prefix \`"$Prefix\`""
}
$trigger = New-ScheduledTaskTrigger -AtStartup
$principal = New-ScheduledTaskPrincipal -UserId 'SYSTEM' -LogonType ServiceAccount -RunLevel Highest
$settings = New-ScheduledTaskSettingsSet -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) -ExecutionTimeLimit ([TimeSpan]::Zero) -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries
Register-ScheduledTask -TaskName $serviceName -Action $action -Trigger $trigger -Principal $principal -Settings $settings | Out-Null
Start-ScheduledTask -TaskName $serviceName
Say "installed and started: scheduled task $serviceName"
exit 0
`;
}
