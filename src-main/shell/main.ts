/**
 * The Electron shell: thin on purpose. It starts the service in a worker thread and the connection
 * gateway (src-main/gateway) in front of it, and opens one hardened window on the console served
 * through the gateway. The only IPC is the connections bridge (preload.ts); the console's data
 * still travels over HTTP, to whichever service the active connection names.
 */
import { app, BrowserWindow, ipcMain, safeStorage, session, shell } from 'electron';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { installShellGuards, secureWindowOptions } from './security.js';
import { electronNativeBinding } from './native-binding.js';
import { desktopMasterKey } from './master-key.js';
import type { ServiceWorkerMessage } from '../service/worker.js';
import { createGateway, GATEWAY_KEY_HEADER } from '../gateway/gateway.js';
import { ConnectionsStore } from '../gateway/connections-store.js';
import { connectionsHandlers } from '../gateway/connections-ipc.js';
import { safeStorageBox } from './secret-box.js';

const here = dirname(fileURLToPath(import.meta.url)); // dist/main/shell
const appRoot = resolve(here, '..', '..', '..');
/** The console's origin: the gateway's. The window may show nothing else. */
let consoleOrigin = '';

function startService(): Promise<{ port: number }> {
  const dataDir = process.env.SERVICE_DATA_DIR ?? join(app.getPath('userData'), 'data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const masterKey = desktopMasterKey(dataDir);
  const nativeBinding = electronNativeBinding(appRoot, app.isPackaged);
  const worker = new Worker(join(here, '..', 'service-worker.js'), {
    workerData: {
      dataDir,
      port: Number(process.env.SERVICE_PORT ?? 0),
      ...(masterKey ? { masterKey } : {}),
      ...(nativeBinding ? { nativeBinding } : {}),
      consoleDir: join(here, '..', '..', 'renderer'),
      // A desktop can lose power (a laptop battery): every acknowledged write is fsynced.
      synchronous: 'full',
    },
  });
  return new Promise((resolvePort, reject) => {
    worker.once('message', (m: ServiceWorkerMessage) =>
      m.type === 'ready' ? resolvePort({ port: m.port }) : reject(new Error(m.type === 'error' ? m.message : m.type)),
    );
    worker.once('error', reject);
  });
}

function harden(): void {
  installShellGuards(
    {
      setPermissionRequestHandler: (handler) =>
        session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) =>
          handler(permission, callback),
        ),
      onWebContentsCreated: (listener) =>
        app.on('web-contents-created', (_event, contents) =>
          listener({
            setWindowOpenHandler: (handler) => contents.setWindowOpenHandler(handler),
            onWillNavigate: (handler) => contents.on('will-navigate', (event, url) => handler(event, url)),
            onWillAttachWebview: (handler) => contents.on('will-attach-webview', (event) => handler(event)),
          }),
        ),
      // Reached only through installShellGuards, after isSafeExternalUrl.
      openExternal: (url) => shell.openExternal(url),
    },
    () => consoleOrigin,
  );
}

async function main(): Promise<void> {
  await app.whenReady();
  harden();
  const { port } = await startService();
  consoleOrigin = await startGateway(`http://127.0.0.1:${port}`);
  const win = new BrowserWindow(secureWindowOptions(join(here, 'preload.cjs')));
  win.once('ready-to-show', () => win.show());
  await win.loadURL(`${consoleOrigin}/console/`);
}

/**
 * The gateway answers only requests carrying this launch's key; the shell adds it to the window's
 * requests to the gateway, so the page never sees it and no other program or browser has it.
 */
async function startGateway(localOrigin: string): Promise<string> {
  const key = randomBytes(32).toString('hex');
  const gateway = createGateway({ localOrigin, key });
  const origin = await gateway.listen();
  session.defaultSession.webRequest.onBeforeSendHeaders({ urls: [`${origin}/*`] }, (details, callback) =>
    callback({ requestHeaders: { ...details.requestHeaders, [GATEWAY_KEY_HEADER]: key } }),
  );
  const store = new ConnectionsStore(join(app.getPath('userData'), 'connections.json'), safeStorageBox(safeStorage));
  const handlers = connectionsHandlers({
    store,
    setTarget: (target) => gateway.setTarget(target),
    consoleOrigin: () => origin,
    localOrigin,
  });
  for (const [channel, handler] of Object.entries(handlers)) {
    // The sender's frame must be the console's top frame at the gateway origin (checked inside).
    ipcMain.handle(channel, (event, ...args: unknown[]) =>
      handler(event.senderFrame?.parent === null ? event.senderFrame.origin : undefined, ...args),
    );
  }
  app.on('before-quit', () => void gateway.close());
  return origin;
}

app.on('window-all-closed', () => app.quit());
main().catch((err: unknown) => {
  console.error('The console could not start:', (err as Error).message);
  app.exit(1);
});
