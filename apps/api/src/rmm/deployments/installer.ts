import { DeploymentEntity } from '@app/entities';

/**
 * The installer a deployment serves. Until the agent issue ships built agent packages, this is an
 * installer *configuration*: the server URL and the deployment token the reference agent (apps/agent)
 * enrolls with, named as the spec's callers expect (.exe for Windows arches, .pkg for macOS ones).
 * One `KEY=value` a line; a value that is not plain is a JSON string (see configValue).
 */
export interface Installer {
  filename: string;
  contentType: string;
  body: string;
}

/** Values written bare: nothing in them can end a line, start a comment or be read as quoting. */
const BARE_VALUE = /^[A-Za-z0-9._:/@+,=-]*$/;

/**
 * One value of the configuration, such that no value can change the file's structure: written bare when it is
 * made of safe characters only (URLs, ids, uuids), else as a JSON string on the same line, with every
 * character outside printable ASCII escaped (\n, \u2028… included), so the file stays one `KEY=value` a line.
 */
export function configValue(value: string): string {
  if (BARE_VALUE.test(value)) return value;
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function buildInstaller(d: DeploymentEntity, serverUrl: string): Installer {
  const mac = d.arch.endsWith('-mac');
  const settings: [string, string][] = [
    ['RMM_SERVER_URL', serverUrl],
    ['RMM_DEPLOYMENT_TOKEN', d.uuid],
    ['RMM_CLIENT_ID', String(d.clientId)],
    ['RMM_SITE_ID', String(d.siteId)],
    ['RMM_ARCH', d.arch],
    ['RMM_INSTALL_FLAGS', d.installFlags ?? ''],
  ];
  const lines = [
    '# RMM agent installer configuration',
    `# deployment ${configValue(d.uuid)}, valid until ${d.expiresAt.toISOString()}`,
    ...settings.map(([k, v]) => `${k}=${configValue(v)}`),
    '',
  ];
  return {
    filename: `rmm-agent-${d.arch}-${d.uuid.slice(0, 8)}.${mac ? 'pkg' : 'exe'}`,
    contentType: 'application/octet-stream',
    body: lines.join('\n'),
  };
}
