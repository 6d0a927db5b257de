/**
 * The narrow bridge: named functions only, no `ipcRenderer` handed to the page. Runs sandboxed,
 * so it may import nothing but electron.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { ConsoleShellBridge, IpcContract } from '../../src-shared/ipc.js';

const bridge: ConsoleShellBridge = {
  info: () => ipcRenderer.invoke('shell:info') as Promise<IpcContract['shell:info']['response']>,
  openExternal: (url: string) =>
    ipcRenderer.invoke('shell:open-external', { url }) as Promise<IpcContract['shell:open-external']['response']>,
};

contextBridge.exposeInMainWorld('consoleShell', bridge);
