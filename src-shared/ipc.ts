/**
 * The one contract between the console and the Electron shell. Data never crosses it (the console
 * uses the HTTP API like any client): only these few calls, each with its request and response.
 */
export interface IpcContract {
  'shell:info': { request: void; response: { version: string; platform: string; serviceUrl: string } };
  'shell:open-external': { request: { url: string }; response: { opened: boolean } };
}

export type IpcChannel = keyof IpcContract;

export const IPC_CHANNELS: readonly IpcChannel[] = ['shell:info', 'shell:open-external'];

/** What the preload exposes on `window.consoleShell` (absent in a plain browser). */
export interface ConsoleShellBridge {
  info(): Promise<IpcContract['shell:info']['response']>;
  openExternal(url: string): Promise<IpcContract['shell:open-external']['response']>;
}

/** Only web links leave the app, and only to http(s). */
export function isSafeExternalUrl(url: string): boolean {
  const m = /^(https?):\/\/[^\s/?#]+[^\s]*$/i.exec(url);
  return m !== null && url.length <= 2048;
}
