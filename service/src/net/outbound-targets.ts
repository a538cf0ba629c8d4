// Where the service may connect on a project owner's behalf. Webhook URLs and the SMTP host of a project's own
// email config are chosen by project owners, who are not the operator: without a check, a project owner could
// make the service POST to, or open SMTP sessions with, the operator's internal network (blind SSRF: cloud
// metadata at 169.254.169.254, databases on 10.x, admin ports on localhost).
//
// In production such targets are refused unless GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS=true; in development
// they are allowed (webhook receivers and mail catchers usually run on localhost). The check is made on every
// resolved address at connection time, so a public name that resolves to a private address is refused too.
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including cloud metadata services
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], // special use, benchmarking, documentation
  ['224.0.0.0', 4], ['240.0.0.0', 4], // multicast, reserved and broadcast
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  // IPv4-mapped addresses (::ffff:a.b.c.d, also in hex) are matched against the IPv4 rules by BlockList itself.
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d
  ['2002::', 16], // 6to4: embeds an IPv4 address, which may be an internal one
  ['64:ff9b::', 96], ['64:ff9b:1::', 48], // NAT64 (could reach internal IPv4 through a gateway)
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], // unique local, link-local, site-local
  ['ff00::', 8], // multicast
] as const) NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address (v4 or v6) is on the public internet; anything else (including not an IP) is not. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return isPublicAddress(mapped[1]!);
  const family = isIP(bare);
  if (family === 4) return !NOT_PUBLIC.check(bare, 'ipv4');
  if (family === 6) return !NOT_PUBLIC.check(bare, 'ipv6');
  return false;
}

/** The policy for targets chosen by project owners. */
export interface OutboundPolicy { allowPrivateNetworks: boolean }

export class PrivateTargetRefused extends Error {
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, a private or internal network address; this server does not connect there on a project's behalf (GATEHOUSE_ALLOW_PRIVATE_NETWORK_TARGETS)`);
    this.name = 'PrivateTargetRefused';
  }
}

/**
 * Resolves `host` and returns the address to connect to, after checking every address the name resolves to
 * against the policy (IPv4 first, as most receivers listen on it). Connecting to the returned address, rather than
 * resolving again, leaves no window for the name to change in between (DNS rebinding). Throws
 * PrivateTargetRefused, or the resolver's error.
 */
export async function resolveTarget(host: string, policy: OutboundPolicy): Promise<string> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const found = isIP(bare) ? [{ address: bare, family: isIP(bare) }] : await lookup(bare, { all: true });
  const addresses = [...found].sort((a, b) => a.family - b.family).map((a) => a.address);
  if (!policy.allowPrivateNetworks) {
    const refused = addresses.find((a) => !isPublicAddress(a));
    if (refused !== undefined) throw new PrivateTargetRefused(host, refused);
  }
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  return addresses[0]!;
}

/**
 * A fetch to `url` pinned to the address `resolveTarget` checked: the URL names the address, the Host header and
 * the TLS server name keep the original name (so virtual hosts and certificates work as usual).
 */
export async function pinnedFetchTarget(url: string, policy: OutboundPolicy): Promise<{ url: string; host: string; serverName?: string }> {
  const u = new URL(url);
  const name = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const address = await resolveTarget(name, policy);
  const host = u.host;
  u.hostname = isIP(address) === 6 ? `[${address}]` : address;
  return { url: u.href, host, ...(isIP(name) ? {} : { serverName: name }) };
}
