/**
 * The patterns a policy's matchers compare with: IP ranges (ipaddr.js, which proxy-addr already
 * relies on) and the original's `paths`, read once when the policy table is built.
 */
import ipaddr from 'ipaddr.js';
import { RE2JS } from 're2js';

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

/** What a policy's `paths` matcher asks of its compiled patterns. */
export interface PathPattern {
  test(path: string): boolean;
}

/**
 * The original's `paths` (path-to-regexp's: `:name` one segment, `*` anything, case-insensitive,
 * an optional trailing slash) and regular expression literals, as one expression. Throws for a
 * literal that is not a valid expression.
 *
 * Trust boundary: an org administrator writes these patterns and they run on every request of the
 * org, so they are compiled by RE2 (re2js), whose matching is linear in the path whatever the
 * pattern: a backtracking pattern such as `/(a+)+$/` cannot stall the process that serves every
 * org. RE2 has no look-around or back-references; a literal using them is refused at save.
 */
export function compilePaths(paths: PathEntry[]): PathPattern {
  const parts = paths.map((p) => {
    if (typeof p !== 'string') {
      RE2JS.compile(p.regex); // validates it as written (a SyntaxError-like error names the fault)
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
  // Case-insensitive throughout, as the original lowercases its paths.
  const compiled = RE2JS.compile(parts.join('|'), RE2JS.CASE_INSENSITIVE);
  return { test: (path) => compiled.test(path) };
}
