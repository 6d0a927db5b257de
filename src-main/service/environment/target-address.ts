/**
 * Addresses a URL deployment target never connects to (issue 38 Low 4). A deployment's URL is
 * chosen by an org administrator, who must not be able to make this service send requests to
 * the machine's link-local network — where cloud metadata services answer with the machine's
 * credentials (169.254.169.254, fd00:ec2::254) — whether the URL names the address or a host
 * name resolving to it. Checked on the literal host when the deployment is saved and run, and on
 * every address a host name resolves to, at the moment of connecting (`guardedLookup`), so a name
 * that changes its answer after the check gains nothing.
 */
import { lookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const REFUSED = new BlockList();
REFUSED.addSubnet('169.254.0.0', 16, 'ipv4'); // IPv4 link-local (IPv4-mapped ::ffff:… forms match too)
REFUSED.addSubnet('fe80::', 10, 'ipv6'); // IPv6 link-local
REFUSED.addAddress('fd00:ec2::254', 'ipv6'); // the IPv6 instance metadata address of one cloud
REFUSED.addSubnet('::a9fe:0', 112, 'ipv6'); // IPv4-compatible form of 169.254.0.0/16
REFUSED.addSubnet('64:ff9b::a9fe:0', 112, 'ipv6'); // NAT64 form of 169.254.0.0/16
REFUSED.addSubnet('2002:a9fe::', 32, 'ipv6'); // 6to4 form of 169.254.0.0/16

/** Whether `address` (an IP address, without brackets) is one a deployment never connects to. */
export function isRefusedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return false;
  return REFUSED.check(bare, family === 6 ? 'ipv6' : 'ipv4');
}

/** The reason to refuse a URL's host when it is a refused address literal (`URL.hostname` form). */
export function refusedHostReason(hostname: string): string | undefined {
  return isRefusedAddress(hostname)
    ? 'targetUrl may not be a link-local or cloud metadata address (169.254.0.0/16, fe80::/10).'
    : undefined;
}

export class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
  readonly code = 'EREFUSEDADDRESS';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** `dns.lookup` with `all: true`, or a stand-in for tests. */
export type ResolveAll = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A `lookup` for node:http(s) that resolves as usual and refuses the connection when any address
 * of the name is refused. Node calls it with `all` set (address family auto-selection) or not.
 */
export function refusingLookup(resolveAll: ResolveAll) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    const all: LookupAllOptions = { ...(options as Partial<LookupAllOptions>), all: true };
    resolveAll(hostname, all, (err, addresses) => {
      if (err) return callback(err, []);
      if (addresses.length === 0 || addresses.some((a) => isRefusedAddress(a.address))) {
        return callback(new RefusedAddressError(`${hostname} resolves to a refused address`), []);
      }
      if ((options as { all?: boolean }).all === true) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/** The lookup URL targets connect with. */
export const guardedLookup = refusingLookup((hostname, options, callback) => lookup(hostname, options, callback));
