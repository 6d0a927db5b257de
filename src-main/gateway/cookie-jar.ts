/**
 * The gateway's own cookies for one remote service. The console's browser never holds a remote's
 * cookie: the local service and every remote would share the host 127.0.0.1 (cookies ignore
 * ports), so a remote's `service.sid` would overwrite the local one. Only name and value are kept;
 * the jar belongs to exactly one origin, so Domain and Path never widen or narrow anything.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Stores each `Set-Cookie` line; an expired one (Max-Age ≤ 0, Expires past) deletes its cookie. */
  store(setCookieLines: readonly string[], nowMs: number): void {
    for (const line of setCookieLines) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (isExpired(attributes, nowMs)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** The `Cookie` header to send, or undefined when the jar is empty. */
  header(): string | undefined {
    if (this.cookies.size === 0) return undefined;
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  clear(): void {
    this.cookies.clear();
  }
}

function isExpired(attributes: string[], nowMs: number): boolean {
  for (const attribute of attributes) {
    const eq = attribute.indexOf('=');
    const key = (eq < 0 ? attribute : attribute.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? '' : attribute.slice(eq + 1).trim();
    if (key === 'max-age' && Number(value) <= 0) return true;
    if (key === 'expires') {
      const at = Date.parse(value);
      if (Number.isFinite(at) && at <= nowMs) return true;
    }
  }
  return false;
}
