/**
 * Two `Host` headers make the addressed host ambiguous: Node keeps the first and drops the rest,
 * while a proxy or cache in front may act on another, so the loopback check could judge a different
 * name than the one a client meant (RFC 9112 §3.2: such a request is answered 400).
 */
export function hasRepeatedHost(rawHeaders: readonly string[]): boolean {
  let seen = false;
  // rawHeaders alternates names and values; names keep the client's letter case.
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      if (seen) return true;
      seen = true;
    }
  }
  return false;
}
