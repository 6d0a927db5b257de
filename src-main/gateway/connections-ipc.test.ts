import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONNECTION_CHANNELS as C } from '../../src-shared/contracts/connections.js';
import { ConnectionsStore, type SecretBox } from './connections-store.js';
import { connectionsHandlers, IpcRefusedError } from './connections-ipc.js';
import type { GatewayTarget } from './gateway.js';

const box: SecretBox = {
  isAvailable: () => true,
  encrypt: (plain) => Buffer.from(plain).reverse(),
  decrypt: (sealed) => Buffer.from(sealed).reverse().toString(),
};
const ORIGIN = 'http://127.0.0.1:40001';
const TOKEN = 'eyJhbGciOiJQUzUxMiJ9.eyJzdWIiOiJhbGljZSJ9.c2ln';
let dir: string;
let targets: GatewayTarget[];
let handlers: ReturnType<typeof connectionsHandlers>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'connections-ipc-'));
  targets = [];
  let n = 0;
  handlers = connectionsHandlers({
    store: new ConnectionsStore(join(dir, 'connections.json'), box, () => `c-${++n}`),
    setTarget: (t) => targets.push(t),
    consoleOrigin: () => ORIGIN,
    localOrigin: 'http://127.0.0.1:4100',
  });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('connections over IPC', () => {
  it('refuses a caller from any other origin (another frame, a navigated page) or none', async () => {
    for (const origin of ['http://127.0.0.1:40002', 'https://evil.example', 'null', undefined]) {
      await expect(handlers[C.list](origin)).rejects.toThrow(IpcRefusedError);
      await expect(handlers[C.activateLocal](origin)).rejects.toThrow(IpcRefusedError);
    }
  });

  it('refuses malformed arguments before touching the store', async () => {
    await expect(handlers[C.save](ORIGIN, { name: 'x', url: 'file:///etc', kind: 'session' })).rejects.toThrow(/http/);
    await expect(handlers[C.activate](ORIGIN, '../../etc/passwd')).rejects.toThrow(IpcRefusedError);
    await expect(handlers[C.remove](ORIGIN, { id: 'c-1' })).rejects.toThrow(IpcRefusedError);
    await expect(handlers[C.list](ORIGIN, 'extra')).rejects.toThrow(/Expected 0/);
    expect(await handlers[C.list](ORIGIN)).toEqual([]);
  });

  it('saves, activates (the gateway gets the secret; the console never does) and goes back to local', async () => {
    const saved = await handlers[C.save](ORIGIN, {
      name: 'Staging',
      url: 'http://10.0.0.5:7788',
      kind: 'token',
      secret: TOKEN,
    });
    expect(JSON.stringify(saved)).not.toContain(TOKEN);
    const active = await handlers[C.activate](ORIGIN, 'c-1');
    expect(JSON.stringify(active)).not.toContain(TOKEN);
    expect(active).toMatchObject({ local: false, connection: { id: 'c-1', name: 'Staging' } });
    expect(targets.at(-1)).toEqual({ kind: 'token', origin: 'http://10.0.0.5:7788', token: TOKEN });
    expect(JSON.stringify(await handlers[C.list](ORIGIN))).not.toContain(TOKEN);
    expect(await handlers[C.active](ORIGIN)).toEqual(active);

    expect(await handlers[C.activateLocal](ORIGIN)).toEqual({ local: true, url: 'http://127.0.0.1:4100' });
    expect(targets.at(-1)).toEqual({ kind: 'local' });
  });

  it('removing the active connection falls back to the local service', async () => {
    await handlers[C.save](ORIGIN, { name: 'Lab', url: 'http://h:1', kind: 'session' });
    await handlers[C.activate](ORIGIN, 'c-1');
    await handlers[C.remove](ORIGIN, 'c-1');
    expect(await handlers[C.active](ORIGIN)).toEqual({ local: true, url: 'http://127.0.0.1:4100' });
    expect(targets.at(-1)).toEqual({ kind: 'local' });
  });
});

describe('the active connection across a restart', () => {
  /** A new start of the app: a fresh store object and handlers over the same file. */
  function restart(withBox: SecretBox = box) {
    const restarted: GatewayTarget[] = [];
    const next = connectionsHandlers({
      store: new ConnectionsStore(join(dir, 'connections.json'), withBox),
      setTarget: (t) => restarted.push(t),
      consoleOrigin: () => ORIGIN,
      localOrigin: 'http://127.0.0.1:4100',
    });
    return { handlers: next, targets: restarted };
  }

  it('starts on the connection that was active, with its credentials in the gateway', async () => {
    await handlers[C.save](ORIGIN, { name: 'Staging', url: 'http://10.0.0.5:7788', kind: 'token', secret: TOKEN });
    await handlers[C.activate](ORIGIN, 'c-1');
    const again = restart();
    expect(again.targets).toEqual([{ kind: 'token', origin: 'http://10.0.0.5:7788', token: TOKEN }]);
    expect(await again.handlers[C.active](ORIGIN)).toMatchObject({ local: false, connection: { id: 'c-1' } });
  });

  it('starts on this computer after going back to it, or after removing the active connection', async () => {
    await handlers[C.save](ORIGIN, { name: 'Lab', url: 'http://h:1', kind: 'session' });
    await handlers[C.activate](ORIGIN, 'c-1');
    await handlers[C.activateLocal](ORIGIN);
    expect(await restart().handlers[C.active](ORIGIN)).toEqual({ local: true, url: 'http://127.0.0.1:4100' });
    await handlers[C.activate](ORIGIN, 'c-1');
    await handlers[C.remove](ORIGIN, 'c-1');
    const again = restart();
    expect(again.targets).toEqual([]);
    expect(await again.handlers[C.active](ORIGIN)).toEqual({ local: true, url: 'http://127.0.0.1:4100' });
  });

  it('falls back to this computer with a notice when the secret cannot be opened, and forgets it', async () => {
    await handlers[C.save](ORIGIN, { name: 'Staging', url: 'http://10.0.0.5:7788', kind: 'token', secret: TOKEN });
    await handlers[C.activate](ORIGIN, 'c-1');
    const locked = restart({ ...box, isAvailable: () => false });
    expect(locked.targets).toEqual([{ kind: 'local' }]);
    const active = (await locked.handlers[C.active](ORIGIN)) as { local: boolean; notice?: string };
    expect(active.local).toBe(true);
    expect(active.notice).toMatch(/Could not reconnect to "Staging": .*keychain.*Using this computer\./);
    expect(JSON.stringify(active)).not.toContain(TOKEN);
    // Forgotten: the next start is quietly local, and the connection itself is still saved.
    const next = restart();
    expect(await next.handlers[C.active](ORIGIN)).toEqual({ local: true, url: 'http://127.0.0.1:4100' });
    expect(await next.handlers[C.list](ORIGIN)).toHaveLength(1);
  });
});
