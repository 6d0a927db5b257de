/**
 * The only bridge between the console and the shell: `window.serviceDesktop.connections`, six
 * calls over fixed channels (src-shared/contracts/connections.ts). It exposes functions, never
 * `ipcRenderer` itself, so the page can send nothing but these messages; main validates each one
 * and checks its sender's origin. Bundled to CommonJS: a sandboxed preload cannot be a module.
 */
import { contextBridge, ipcRenderer } from 'electron';
import {
  CONNECTION_CHANNELS as C,
  type ConnectionDraft,
  type ConnectionsBridge,
} from '../../src-shared/contracts/connections.js';

const connections: ConnectionsBridge = {
  list: () => ipcRenderer.invoke(C.list),
  save: (draft: ConnectionDraft) => ipcRenderer.invoke(C.save, draft),
  remove: (id: string) => ipcRenderer.invoke(C.remove, id),
  activate: (id: string) => ipcRenderer.invoke(C.activate, id),
  activateLocal: () => ipcRenderer.invoke(C.activateLocal),
  active: () => ipcRenderer.invoke(C.active),
};

contextBridge.exposeInMainWorld('serviceDesktop', { connections });
