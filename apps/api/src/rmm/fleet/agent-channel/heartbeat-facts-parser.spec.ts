import { parseHeartbeatFacts } from './heartbeat-facts-parser';

describe('parseHeartbeatFacts', () => {
  const disks = [{ device: '/', free: '1.0 GB', total: '2.0 GB', percent: 50 }];

  it('keeps the valid known fields and drops the rest', () => {
    expect(
      parseHeartbeatFacts({ plat: 'linux', version: '0.2.0', total_ram: 7.5, disks, local_ip: '10.0.0.1', logged_in_username: 'alice', hostname: 'x', monitoring_type: 'server', arch: 'x64', secret_hash: 'y' }),
    ).toEqual({ os_hostname: 'x', plat: 'linux', version: '0.2.0', total_ram: 7.5, disks, local_ip: '10.0.0.1', logged_in_username: 'alice' });
  });

  it("stores the fact hostname as os_hostname (the device's own name), with the registration's rule", () => {
    expect(parseHeartbeatFacts({ hostname: 'vm' })).toEqual({ os_hostname: 'vm' });
    expect(parseHeartbeatFacts({ hostname: ' vm', cpu_model: 'x' })).toEqual({ cpu_model: 'x' });
    expect(parseHeartbeatFacts({ hostname: 'v\nm' })).toBeNull();
    expect(parseHeartbeatFacts({ hostname: '' })).toBeNull();
    expect(parseHeartbeatFacts({ hostname: 'x'.repeat(256) })).toBeNull();
  });

  it('drops invalid fields one by one, and answers null when nothing is left, whatever the input', () => {
    expect(parseHeartbeatFacts({ logged_in_username: 'bob', total_ram: -1, plat: 'beos', version: '', cpu_model: 'a\u0007b', public_ip: 'x'.repeat(65) })).toEqual({ logged_in_username: 'bob' });
    expect(parseHeartbeatFacts({ disks: [{ ...disks[0], percent: 101 }] })).toBeNull();
    expect(parseHeartbeatFacts({ disks: Array.from({ length: 65 }, () => disks[0]) })).toBeNull();
    expect(parseHeartbeatFacts({ disks: [null] })).toBeNull();
    expect(parseHeartbeatFacts({ total_ram: Number.NaN, operating_system: 42 })).toBeNull();
    for (const raw of [null, undefined, 'x', 3, [], [1], {}]) expect(parseHeartbeatFacts(raw)).toBeNull();
  });
});

describe('parseHeartbeatFacts: text PostgreSQL can store', () => {
  it('turns lone surrogates into U+FFFD (jsonb refuses them) and keeps surrogate pairs', () => {
    expect(parseHeartbeatFacts({ version: '1.0\ud800', logged_in_username: 'zoë 😀', disks: [{ device: '/\udc00', free: '1 GB', total: '2 GB', percent: 1 }] })).toEqual({
      version: '1.0\ufffd',
      logged_in_username: 'zoë 😀',
      disks: [{ device: '/\ufffd', free: '1 GB', total: '2 GB', percent: 1 }],
    });
  });

  it('refuses NUL like any control character (the field is dropped)', () => {
    expect(parseHeartbeatFacts({ version: '1.0\u0000', cpu_model: 'x' })).toEqual({ cpu_model: 'x' });
  });
});
