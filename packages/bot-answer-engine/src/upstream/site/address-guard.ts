import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Resolves a host name as `dns.lookup` does with `{all: true}`. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

/** The addresses of a host, from the system's resolver. */
export const resolveHost: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));

// Loopback, private, link-local, carrier-grade NAT, "this network", unique-local and
// IPv4-mapped forms: addresses of the operator's own machine and network.
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** Whether an IP address belongs to this machine or a private network (loopback, RFC 1918, link-local, unique-local). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** A host whose address the crawl may not connect to. */
export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
  readonly code = 'ERR_PRIVATE_ADDRESS';
}

/**
 * Whether a site may be crawled on private addresses: only when its start URL is on one (a
 * docs server on the operator's own network or machine), never because a page points there.
 */
export async function startsPrivate(url: URL, resolve: ResolveHost): Promise<boolean> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host);
  const addresses = await resolve(host);
  return addresses.some((a) => isPrivateAddress(a.address));
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the sockets the crawl opens: it resolves the host and refuses private and
 * loopback addresses unless `allowPrivate`. Checked when each connection is made, so a name
 * that resolves elsewhere later (DNS rebinding) is caught as well as one that does at once.
 */
export function guardedLookup(allowPrivate: boolean, resolve: ResolveHost) {
  return (hostname: string, options: { all?: boolean } | number, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        const refused = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
        if (refused) return callback(new RefusedAddressError(`${hostname} resolves to ${refused.address}, a private or loopback address`), []);
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        if (typeof options === 'object' && options.all) return callback(null, addresses);
        callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
