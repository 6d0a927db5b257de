/**
 * The patterns a policy's matchers compare with: IP ranges (ipaddr.js, which proxy-addr already
 * relies on) and the original's `paths`, read once when the policy table is built.
 */
import ipaddr from 'ipaddr.js';

export type IpRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An IPv4 or IPv6 address or CIDR range, or undefined when it is neither. */
export function parseRange(entry: string): IpRange | undefined {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const address = ipaddr.process(entry);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

export function inRanges(ip: string, ranges: IpRange[]): boolean {
  if (!ipaddr.isValid(ip)) return false;
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 one.
  const address = ipaddr.process(ip);
  return ranges.some(([range, bits]) => address.kind() === range.kind() && address.match(range, bits));
}

/** A `paths` entry: a path pattern, or a regular expression literal's source and flags. */
export type PathEntry = string | { regex: string; flags: string };

/**
 * The original's `paths` (path-to-regexp's: `:name` one segment, `*` anything, case-insensitive,
 * an optional trailing slash) and regular expression literals, as one expression. Throws a
 * SyntaxError for a literal that is not a valid expression.
 */
export function compilePaths(paths: PathEntry[]): RegExp {
  const parts = paths.map((p) => {
    if (typeof p !== 'string') {
      new RegExp(p.regex, p.flags.replace(/[gy]/g, '')); // validates it as written
      return `(?:${p.regex})`;
    }
    const body = p
      .split(/(:[A-Za-z0-9_]+\??|\*)/)
      .map((piece) => {
        if (piece === '*') return '.*';
        if (piece.startsWith(':')) return piece.endsWith('?') ? '(?:[^/]+?)?' : '[^/]+?';
        return piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    return `^${body.replace(/\/$/, '')}\\/?$`;
  });
  // Case-insensitive throughout, as the original lowercases its paths; flags g and y would make
  // test() remember where it stopped.
  return new RegExp(parts.join('|'), 'i');
}
