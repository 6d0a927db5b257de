/**
 * The Electron shell: thin on purpose. It starts the service in a worker thread, opens one hardened
 * window on the console served by that service. There is no IPC: the console uses only HTTP.
 */
import { app, BrowserWindow, session, shell } from 'electron';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { installShellGuards, secureWindowOptions } from './security.js';
import { electronNativeBinding } from './native-binding.js';
import { desktopMasterKey } from './master-key.js';
import type { ServiceWorkerMessage } from '../service/worker.js';

const here = dirname(fileURLToPath(import.meta.url)); // dist/main/shell
const appRoot = resolve(here, '..', '..', '..');
let serviceOrigin = '';

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
    () => serviceOrigin,
  );
}

async function main(): Promise<void> {
  await app.whenReady();
  harden();
  const { port } = await startService();
  serviceOrigin = `http://127.0.0.1:${port}`;
  const win = new BrowserWindow(secureWindowOptions());
  win.once('ready-to-show', () => win.show());
  await win.loadURL(`${serviceOrigin}/console/`);
}

app.on('window-all-closed', () => app.quit());
main().catch((err: unknown) => {
  console.error('The console could not start:', (err as Error).message);
  app.exit(1);
});
