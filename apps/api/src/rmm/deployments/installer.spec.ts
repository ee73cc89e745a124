import fc from 'fast-check';
import { DeploymentEntity } from '@app/entities';
import { buildInstaller, configValue } from './installer';

const decode = (v: string): string => (v.startsWith('"') ? (JSON.parse(v) as string) : v);

const deployment = (installFlags: string | null): DeploymentEntity =>
  Object.assign(new DeploymentEntity(), {
    uuid: '0b8c4a4e-8f4e-4a8e-9c0e-6d1f2a3b4c5d',
    clientId: 3,
    siteId: 4,
    arch: 'amd64',
    installFlags,
    expiresAt: new Date('2026-11-24T12:00:00Z'),
  });

describe('installer configuration', () => {
  it('writes plain values bare, as before', () => {
    const body = buildInstaller(deployment('--silent'), 'https://rmm.example.test').body;
    expect(body.split('\n')).toEqual([
      '# RMM agent installer configuration',
      '# deployment 0b8c4a4e-8f4e-4a8e-9c0e-6d1f2a3b4c5d, valid until 2026-11-24T12:00:00.000Z',
      'RMM_SERVER_URL=https://rmm.example.test',
      'RMM_DEPLOYMENT_TOKEN=0b8c4a4e-8f4e-4a8e-9c0e-6d1f2a3b4c5d',
      'RMM_CLIENT_ID=3',
      'RMM_SITE_ID=4',
      'RMM_ARCH=amd64',
      'RMM_INSTALL_FLAGS=--silent',
      '',
    ]);
  });

  it('keeps a newline in install_flags from adding a line (the injection of finding 4)', () => {
    const body = buildInstaller(deployment('--quiet\nRMM_SERVER_URL=http://attacker.example'), 'https://rmm.example.test').body;
    expect(body.split('\n').filter((l) => l.startsWith('RMM_SERVER_URL='))).toEqual(['RMM_SERVER_URL=https://rmm.example.test']);
    expect(body).toContain('RMM_INSTALL_FLAGS="--quiet\\nRMM_SERVER_URL=http://attacker.example"');
  });

  it('no value, whatever its characters, changes the structure; each decodes back to itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (flags, url) => {
        // Every line break some reader honours: \r\n, \n, \r, \v, \f, FS/GS/RS, NEL, LS, PS.
        // eslint-disable-next-line no-control-regex
        const lines = buildInstaller(deployment(flags), url).body.split(/\r\n|[\n\r\v\f\u001c-\u001e\u0085\u2028\u2029]/);
        expect(lines).toHaveLength(9);
        expect(lines.slice(2, 8).map((l) => l.slice(0, l.indexOf('=')))).toEqual([
          'RMM_SERVER_URL', 'RMM_DEPLOYMENT_TOKEN', 'RMM_CLIENT_ID', 'RMM_SITE_ID', 'RMM_ARCH', 'RMM_INSTALL_FLAGS',
        ]);
        expect(/^[\x20-\x7e]*$/.test(lines.join(''))).toBe(true);
        expect(decode(lines[2].slice('RMM_SERVER_URL='.length))).toBe(url);
        expect(decode(lines[7].slice('RMM_INSTALL_FLAGS='.length))).toBe(flags);
      }),
    );
    expect(configValue('')).toBe('');
    expect(configValue('a b')).toBe('"a b"');
    expect(configValue('"x"')).toBe('"\\"x\\""');
    expect(configValue('#x')).toBe('"#x"');
  });
});
