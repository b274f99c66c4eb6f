/**
 * Which addresses a calendar feed may lead the server to (src/server/calendars/fetch-feed.ts): never
 * a private, link-local or loopback one, nor one carried inside an IPv6 address.
 */
import { describe, expect, it } from 'vitest';
import { allowedFeedAddress } from '../../src/server/calendars/fetch-feed';

const allowed = (address: string) => allowedFeedAddress(address, false);

describe('a feed address', () => {
  it('is refused when private, link-local or loopback, and taken when public', () => {
    for (const address of ['10.0.0.1', '192.168.1.1', '169.254.169.254', '127.0.0.1', '::1'])
      expect(allowed(address), address).toBe(false);
    for (const address of ['203.0.113.7', '2001:db8::1', '2a00:1450:4001::5'])
      expect(allowed(address), address).toBe(true);
    // A feed configured on loopback may stay there.
    expect(allowedFeedAddress('127.0.0.1', true)).toBe(true);
    expect(allowedFeedAddress('::1', true)).toBe(true);
  });

  it('in the IPv4-mapped form is judged as its IPv4 address, in either spelling', () => {
    for (const address of ['::ffff:10.0.0.1', '::ffff:a00:1', '::ffff:a9fe:a9fe'])
      expect(allowed(address), address).toBe(false);
    expect(allowed('::ffff:203.0.113.7')).toBe(true);
  });

  it('behind NAT64 (64:ff9b::/96) is judged as the IPv4 address in its last 32 bits', () => {
    for (const address of [
      '64:ff9b::10.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b::169.254.169.254',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::c0a8:101',
      '64:ff9b::7f00:1',
      '64:ff9b::',
    ])
      expect(allowed(address), address).toBe(false);
    // The gateway's own loopback is not the feed's: refused even for a feed configured on loopback.
    expect(allowedFeedAddress('64:ff9b::127.0.0.1', true)).toBe(false);
    // A public IPv4-only calendar host, as an IPv6-only server reaches it.
    for (const address of ['64:ff9b::203.0.113.7', '64:ff9b::cb00:7107', '64:ff9b::808:808'])
      expect(allowed(address), address).toBe(true);
  });

  it('is refused whole in the other ranges that carry an IPv4 address, whatever it is', () => {
    for (const address of [
      // Local-use NAT64 (RFC 8215): where its IPv4 sits depends on the operator's prefix.
      '64:ff9b:1::a00:1',
      '64:ff9b:1:ffff::cb00:7107',
      // IPv4-compatible (::a.b.c.d, deprecated).
      '::10.0.0.1',
      '::a00:1',
      '::203.0.113.7',
      // 6to4: the IPv4 address in bits 16-48.
      '2002:a00:1::1',
      '2002:c0a8:101::',
      '2002:cb00:7107::1',
      // Teredo.
      '2001:0:a00:1::1',
      '2001::cb00:7107:ffff:ffff',
      // Site-local (deprecated, still routed inside some networks).
      'fec0::1',
    ])
      expect(allowed(address), address).toBe(false);
    // Just outside those ranges: ordinary public addresses.
    for (const address of ['64:ff9b:2::1', '2003::1', '2001:1::1', '2001:db8::a00:1'])
      expect(allowed(address), address).toBe(true);
  });
});
