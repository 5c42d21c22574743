// Which IP addresses a tenant may make Raaga connect to: none of the loopback, private, link-local, unique-local,
// site-local, CGNAT, multicast, documentation, discard-only, reserved or unspecified ranges, in IPv4 or IPv6,
// including IPv4 addresses wrapped in IPv6 (mapped, compatible, SIIT, NAT64, 6to4), unless the operator's
// allow-list names the network.

import { BlockList, isIP } from 'node:net';

/** Networks no tenant-pointed connection reaches by default, with the name a refusal gives. */
const NON_PUBLIC_V4: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const NON_PUBLIC_V6: ReadonlyArray<readonly [string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  // RFC 6666: packets to it are dropped; nothing a tenant should be pointing at.
  ['100::', 64, 'discard-only'],
  // RFC 8215 local-use NAT64: the operator's own translator, whose prefix length (and so where the IPv4 address
  // sits) is its choice, so the whole range is refused rather than unwrapped at a guessed offset.
  ['64:ff9b:1::', 48, 'local NAT64'],
  ['2001:db8::', 32, 'documentation'],
  ['fe80::', 10, 'link-local'],
  // Deprecated (RFC 3879) but still routed inside some sites.
  ['fec0::', 10, 'site-local'],
  ['fc00::', 7, 'unique-local'],
  ['ff00::', 8, 'multicast'],
];

function blockListOf(ranges: ReadonlyArray<readonly [string, number, string]>, family: 'ipv4' | 'ipv6'): ReadonlyArray<readonly [BlockList, string]> {
  return ranges.map(([network, prefix, name]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return [list, name] as const;
  });
}

const V4_RANGES = blockListOf(NON_PUBLIC_V4, 'ipv4');
const V6_RANGES = blockListOf(NON_PUBLIC_V6, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail becomes the last two). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const octets = dotted[1].split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((octets[0] << 8) | octets[1]).toString(16)}:${((octets[2] << 8) | octets[3]).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const dottedQuad = (high: number, low: number): string => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 one carries, if any: mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, SIIT's
 * IPv4-translated `::ffff:0:a.b.c.d` (RFC 7915), well-known NAT64 `64:ff9b::a.b.c.d`, and 6to4 `2002:AABB:CCDD::/48`
 * (RFC 3056), where a relay sends the packet to the IPv4 address in the second and third groups.
 */
export function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((group) => group === 0);
  if (g[0] === 0x2002) return dottedQuad(g[1] ?? 0, g[2] ?? 0);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const translated = zeros(0, 4) && g[4] === 0xffff && g[5] === 0;
  const compatible = zeros(0, 6) && !(g[6] === 0 && (g[7] ?? 0) <= 1);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !translated && !compatible && !nat64) return undefined;
  return dottedQuad(g[6] ?? 0, g[7] ?? 0);
}

/** Why `address` is not public ('loopback', 'private', …), or undefined for a public address. */
export function nonPublicRange(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return V4_RANGES.find(([list]) => list.check(address, 'ipv4'))?.[1];
  if (family !== 6) return 'not an IP address';
  const inner = embeddedIpv4(address);
  if (inner !== undefined) return nonPublicRange(inner);
  return V6_RANGES.find(([list]) => list.check(address, 'ipv6'))?.[1];
}

/** The operator's networks (`10.0.0.0/8`, `fd00::/8`, a bare address): reachable although not public. */
export class NetworkAllowList {
  readonly #list = new BlockList();
  readonly size: number;

  constructor(blocks: readonly string[]) {
    for (const block of blocks) {
      const [address = '', prefix] = block.split('/');
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.#list.addAddress(address, family);
      else this.#list.addSubnet(address, Number(prefix), family);
    }
    this.size = blocks.length;
  }

  has(address: string): boolean {
    if (this.size === 0) return false;
    const family = isIP(address);
    if (family === 4) return this.#list.check(address, 'ipv4');
    const inner = embeddedIpv4(address);
    return this.#list.check(address, 'ipv6') || (inner !== undefined && this.#list.check(inner, 'ipv4'));
  }
}
