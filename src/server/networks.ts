/**
 * Who a client is, for every per-client limit (the post gate's rate limit, the booking cap, field
 * data's limits, the connections a client may hold): its network, not its address. One IPv6 home
 * connection is given a whole /64, 2^64 addresses to pick from, so an IPv6 client is its /64; an
 * IPv4 client is its address. The wider network (an IPv4 /24, an IPv6 /48: one site or provider's
 * block) is what the caps on hoarding count as well. Stored records keep the full address.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, or undefined if it is not one. */
export function ipv6Groups(address: string): number[] | undefined {
  // A zone (fe80::1%eth0) names an interface of this host, not part of the address.
  let text = address.split('%')[0]!;
  if (!isIPv6(text)) return undefined;
  // An IPv4 tail (::ffff:192.0.2.1, 64:ff9b::192.0.2.1) is the last two groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const first = parse(head);
  if (rest === undefined) return first;
  const last = parse(rest);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** The IPv4 address an IPv6 one maps (::ffff:a.b.c.d, in either notation), if it maps one. */
function mappedIPv4(groups: number[]): string | undefined {
  if (groups.slice(0, 5).some(Boolean) || groups[5] !== 0xffff) return undefined;
  const [high, low] = [groups[6]!, groups[7]!];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * One spelling per address, so that two spellings of it are one client: an IPv4 address as it is
 * (Node's isIPv4 takes no leading zeros, so there is one spelling already), one an IPv6 address maps
 * (::ffff:192.0.2.1, ::ffff:c000:201) as that IPv4 address, any other IPv6 address in RFC 5952's
 * form (lower case, no leading zeros, the longest run of zero groups as `::`), its zone left off.
 * Undefined for anything that is not an address.
 */
export function canonicalAddress(text: string): string | undefined {
  if (isIPv4(text)) return text;
  const groups = ipv6Groups(text);
  if (!groups) return undefined;
  const v4 = mappedIPv4(groups);
  if (v4) return v4;
  // The longest run of two or more zero groups, the first of equals.
  let [start, length] = [-1, 1];
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > length) [start, length] = [i, j - i];
    i = j + 1;
  }
  const hex = (list: number[]) => list.map((group) => group.toString(16)).join(':');
  if (start < 0) return hex(groups);
  return `${hex(groups.slice(0, start))}::${hex(groups.slice(start + length))}`;
}

const prefix = (groups: number[], count: number, bits: number) =>
  `${groups
    .slice(0, count)
    .map((group) => group.toString(16))
    .join(':')}::/${bits}`;

/**
 * The client as the limits count it: an IPv4 address as it is, an IPv6 address as its /64
 * (`2001:db8:1:2::/64`). Anything else (no address at all) stands for itself.
 */
export function clientNetwork(address: string): string {
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  return mappedIPv4(groups) ?? prefix(groups, 4, 64);
}

/** The client's wider network: an IPv4 /24 (`192.0.2.0/24`), an IPv6 /48 (`2001:db8:1::/48`). */
export function wideNetwork(address: string): string {
  const groups = isIPv4(address) ? undefined : ipv6Groups(address);
  const v4 = isIPv4(address) ? address : groups && mappedIPv4(groups);
  if (v4) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  return groups ? prefix(groups, 3, 48) : address;
}
