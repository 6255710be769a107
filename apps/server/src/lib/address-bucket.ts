import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key under which per-address limits count a client: an IPv4 address as it is, an
 * IPv6 address by its /64 network. One IPv6 subscriber usually holds a whole /64 and can
 * use any address in it, so counting single IPv6 addresses would limit nobody. An
 * IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack socket reports IPv4
 * peers) counts as its IPv4 address. Anything else (no address) is its own key.
 */
export function addressBucket(address: string): string {
  // A zone index (`fe80::1%eth0`) names the local interface, not the peer.
  const ip = address.replace(/%.*$/, '');
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return address;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` and a dotted IPv4 tail expanded. */
export function ipv6Groups(ip: string): number[] {
  const parse = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((piece) => {
      if (!piece.includes('.')) return [parseInt(piece, 16)];
      const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head = '', tail] = ip.toLowerCase().split('::');
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/** Whether an address is this machine's: 127.0.0.0/8, ::1, or either written IPv4-mapped. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bucket = addressBucket(address);
  if (isIPv4(bucket)) return bucket.startsWith('127.');
  const ip = address.replace(/%.*$/, '');
  return isIPv6(ip) && ipv6Groups(ip).every((group, index) => group === (index === 7 ? 1 : 0));
}
