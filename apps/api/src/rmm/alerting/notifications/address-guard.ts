import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The ranges a notification never goes to unless RMM_NOTIFY_ALLOW_PRIVATE=true: an operator's channel URL must not
 * be a way into the network the server sits in (server-side request forgery): this host, private networks,
 * link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast and reserved ranges.
 */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const) {
  BLOCKED.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:10.0.0.1, ::ffff:a00:1), else null. */
function mappedV4(address: string): string | null {
  const m = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!m) return null;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for an address in a private, loopback, link-local or reserved range. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    const v4 = mappedV4(address);
    return v4 !== null ? BLOCKED.check(v4, 'ipv4') : BLOCKED.check(address, 'ipv6');
  }
  return true; // not an address at all: never "public"
}

/** The host of a URL as an address literal (brackets of IPv6 removed), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) ? bare : null;
}

export class AddressRefused extends Error {}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves `hostname` and checks every address it resolves to (one private address refuses the whole name: a
 * name that mixes them is how rebinding attacks start); the caller connects to the address returned, so a second
 * resolution cannot swap it for another (DNS rebinding). AddressRefused names the host and the address.
 */
export async function resolveChecked(hostname: string, allowPrivate: boolean): Promise<CheckedAddress> {
  const literal = literalAddress(hostname);
  const found = literal ? [{ address: literal, family: isIP(literal) }] : await lookup(hostname, { all: true, verbatim: true });
  if (found.length === 0) throw new AddressRefused(`${hostname} resolves to no address`);
  if (!allowPrivate) {
    const bad = found.find((a) => isPrivateAddress(a.address));
    if (bad) {
      throw new AddressRefused(`refused: ${hostname} resolves to ${bad.address}, a private, loopback or link-local address (set RMM_NOTIFY_ALLOW_PRIVATE=true to allow)`);
    }
  }
  return { address: found[0].address, family: found[0].family === 6 ? 6 : 4 };
}
