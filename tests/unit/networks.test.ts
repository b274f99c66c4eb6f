/** A client, as every per-client limit counts it: an IPv4 address, an IPv6 /64 (src/server/networks.ts). */
import { describe, expect, it } from 'vitest';
import { canonicalAddress, clientNetwork, wideNetwork } from '../../src/server/networks';

describe('clientNetwork and wideNetwork', () => {
  it.each([
    // address, client, wider network
    ['192.0.2.7', '192.0.2.7', '192.0.2.0/24'],
    ['::ffff:192.0.2.7', '192.0.2.7', '192.0.2.0/24'],
    ['::ffff:c000:207', '192.0.2.7', '192.0.2.0/24'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64', '2001:db8:1::/48'],
    ['2001:DB8:1:2:FFFF:FFFF:FFFF:FFFF', '2001:db8:1:2::/64', '2001:db8:1::/48'],
    ['2001:0db8:0001:0002:0000:0000:0000:0001', '2001:db8:1:2::/64', '2001:db8:1::/48'],
    ['2001:db8:1:2:3::', '2001:db8:1:2::/64', '2001:db8:1::/48'],
    ['2001:db8::', '2001:db8:0:0::/64', '2001:db8:0::/48'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64', 'fe80:0:0::/48'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64', '64:ff9b:0::/48'],
    ['::1', '0:0:0:0::/64', '0:0:0::/48'],
  ])('%s is the client %s in %s', (address, client, wide) => {
    expect(clientNetwork(address)).toBe(client);
    expect(wideNetwork(address)).toBe(wide);
  });

  it('counts every address of one /64 as one client, and the next /64 as another', () => {
    const clients = new Set(
      [
        '2001:db8:aa:bb::1',
        '2001:db8:aa:bb::2',
        '2001:db8:aa:bb:ffff:1:2:3',
        '2001:db8:aa:bb:1234:5678:9abc:def0',
      ].map(clientNetwork),
    );
    expect(clients).toEqual(new Set(['2001:db8:aa:bb::/64']));
    expect(clientNetwork('2001:db8:aa:bc::1')).not.toBe(clientNetwork('2001:db8:aa:bb::1'));
    expect(clientNetwork('192.0.2.1')).not.toBe(clientNetwork('192.0.2.2'));
  });

  it('leaves what is not an address as it is', () => {
    for (const text of ['', 'unknown', '2001:db8::g', '999.1.1.1', '1.2.3.4/24'])
      expect([clientNetwork(text), wideNetwork(text)]).toEqual([text, text]);
  });

  it('gives every address one spelling (RFC 5952 for IPv6), and the networks of it are the same', () => {
    for (const [spellings, canonical] of [
      [
        ['192.0.2.7', '::ffff:192.0.2.7', '::FFFF:c000:207', '0:0:0:0:0:ffff:c000:0207'],
        '192.0.2.7',
      ],
      [['2001:db8::1', '2001:DB8:0::1', '2001:0db8:0000:0000:0000:0000:0000:0001'], '2001:db8::1'],
      [['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'], '2001:db8:0:1::1'],
      // The longest run of zeros is the one left out; of two as long, the first; never a single one.
      [['2001:db8:0:0:1:0:0:1'], '2001:db8::1:0:0:1'],
      [['2001:0:0:1:0:0:0:1'], '2001:0:0:1::1'],
      [['2001:db8:1:2:3:4:0:5'], '2001:db8:1:2:3:4:0:5'],
      [['0:0:0:0:0:0:0:0', '::'], '::'],
      [['0:0:0:0:0:0:0:1'], '::1'],
      [['1:0:0:0:0:0:0:0'], '1::'],
      [['fe80::1%eth0', 'FE80:0::1'], 'fe80::1'],
      [['64:ff9b::192.0.2.1'], '64:ff9b::c000:201'],
    ] as const)
      for (const spelling of spellings) {
        expect(canonicalAddress(spelling), spelling).toBe(canonical);
        expect(clientNetwork(spelling)).toBe(clientNetwork(canonical));
        expect(wideNetwork(spelling)).toBe(wideNetwork(canonical));
      }
    for (const text of [
      '',
      'unknown',
      '2001:db8::g',
      '999.1.1.1',
      '01.2.3.4',
      '[::1]',
      '1.2.3.4:80',
    ])
      expect(canonicalAddress(text), text).toBeUndefined();
  });
});
