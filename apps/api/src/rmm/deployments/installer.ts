import { DeploymentEntity } from '@app/entities';

/**
 * The installer a deployment serves. Until the agent issue ships built agent packages, this is an
 * installer *configuration*: the server URL and the deployment token the reference agent (apps/agent)
 * enrolls with, named as the spec's callers expect (.exe for Windows arches, .pkg for macOS ones).
 */
export interface Installer {
  filename: string;
  contentType: string;
  body: string;
}

export function buildInstaller(d: DeploymentEntity, serverUrl: string): Installer {
  const mac = d.arch.endsWith('-mac');
  const lines = [
    '# RMM agent installer configuration',
    `# deployment ${d.uuid}, valid until ${d.expiresAt.toISOString()}`,
    `RMM_SERVER_URL=${serverUrl}`,
    `RMM_DEPLOYMENT_TOKEN=${d.uuid}`,
    `RMM_CLIENT_ID=${d.clientId}`,
    `RMM_SITE_ID=${d.siteId}`,
    `RMM_ARCH=${d.arch}`,
    `RMM_INSTALL_FLAGS=${d.installFlags ?? ''}`,
    '',
  ];
  return {
    filename: `rmm-agent-${d.arch}-${d.uuid.slice(0, 8)}.${mac ? 'pkg' : 'exe'}`,
    contentType: 'application/octet-stream',
    body: lines.join('\n'),
  };
}
