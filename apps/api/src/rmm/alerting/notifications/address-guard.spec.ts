import { AddressRefused, isPrivateAddress, literalAddress, resolveChecked } from './address-guard';

describe('address guard', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:a00:1', '224.0.0.1'])(
    'refuses %s',
    (address) => expect(isPrivateAddress(address)).toBe(true),
  );

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('lets %s through', (address) => expect(isPrivateAddress(address)).toBe(false));

  it('reads address literals of URLs, brackets included', () => {
    expect(literalAddress('[::1]')).toBe('::1');
    expect(literalAddress('10.0.0.1')).toBe('10.0.0.1');
    expect(literalAddress('example.com')).toBeNull();
  });

  it('refuses a name that resolves to loopback, and allows it when told to', async () => {
    await expect(resolveChecked('localhost', false)).rejects.toBeInstanceOf(AddressRefused);
    await expect(resolveChecked('127.0.0.1', false)).rejects.toThrow(/RMM_NOTIFY_ALLOW_PRIVATE/);
    await expect(resolveChecked('127.0.0.1', true)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });
});
