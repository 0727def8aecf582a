import { AddressPolicy, isLocalhostName, literalIp } from './address-policy';

describe('SSRF address policy', () => {
  const closed = new AddressPolicy();

  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['192.0.2.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
    ['2001:db8::1', 'reserved'],
  ])('refuses %s (%s)', (address, range) => {
    expect(closed.refusal(address)).toContain(range);
  });

  it('refuses IPv4-compatible IPv6 addresses outside global unicast', () => {
    expect(closed.refusal('::7f00:1')).not.toBeNull();
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows public %s', (address) => {
    expect(closed.refusal(address)).toBeNull();
  });

  it('opens only the allow-listed ranges, including IPv4-mapped forms of them', () => {
    const open = new AddressPolicy(['127.0.0.0/8', '::1/128']);
    expect(open.allowed('127.0.0.1')).toBe(true);
    expect(open.allowed('::ffff:127.0.0.2')).toBe(true);
    expect(open.allowed('::1')).toBe(true);
    expect(open.allowed('10.0.0.1')).toBe(false);
    expect(open.allowed('169.254.169.254')).toBe(false);
  });

  it('rejects a malformed allow-list entry', () => {
    expect(() => new AddressPolicy(['127.0.0.1/99'])).toThrow(/invalid CIDR/);
  });

  it('recognises literal IP hosts and localhost names', () => {
    expect(literalIp('[::1]')).toBe('::1');
    expect(literalIp('127.0.0.1')).toBe('127.0.0.1');
    expect(literalIp('example.com')).toBeNull();
    expect(isLocalhostName('LOCALHOST.')).toBe(true);
    expect(isLocalhostName('api.localhost')).toBe(true);
    expect(isLocalhostName('localhost.example.com')).toBe(false);
  });
});
