import type { BrowserWindowConstructorOptions } from 'electron';

/** Only web links leave the app, and only to http(s). */
export function isSafeExternalUrl(url: string): boolean {
  const m = /^(https?):\/\/[^\s/?#]+[^\s]*$/i.exec(url);
  return m !== null && url.length <= 2048;
}

/**
 * The window's settings, in one place so a test can check them without starting Electron:
 * isolation and sandbox on, no Node in the page, no remote content beyond our loopback origin. The
 * one preload (shell/preload.ts) exposes only the six connections calls through contextBridge.
 */
export function secureWindowOptions(preload?: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Typed Object Console',
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      navigateOnDragDrop: false,
      ...(preload !== undefined ? { preload } : {}),
    },
  };
}

/** The only origin the window may show: the service on loopback. */
export function isAllowedNavigation(url: string, serviceOrigin: string): boolean {
  try {
    return new URL(url).origin === serviceOrigin;
  } catch {
    return false;
  }
}

/** What the guards need of a web contents; main.ts adapts Electron's WebContents to it. */
export interface GuardedContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  onWillNavigate(listener: (event: { preventDefault(): void }, url: string) => void): void;
  onWillAttachWebview(listener: (event: { preventDefault(): void }) => void): void;
}

/** What the guards need of Electron; injected so a test can drive them without Electron. */
export interface ShellGuardDeps {
  setPermissionRequestHandler(handler: (permission: string, callback: (granted: boolean) => void) => void): void;
  onWebContentsCreated(listener: (contents: GuardedContents) => void): void;
  openExternal(url: string): Promise<void>;
}

/**
 * Trust boundary: what the page may make the shell do. Every permission request is denied; no
 * window is ever opened (a safe http(s) link outside the console goes to the OS browser instead);
 * navigation leaves the service origin never; webviews are never attached.
 */
export function installShellGuards(deps: ShellGuardDeps, serviceOrigin: () => string): void {
  deps.setPermissionRequestHandler((_permission, callback) => callback(false));
  deps.onWebContentsCreated((contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (isSafeExternalUrl(url) && !isAllowedNavigation(url, serviceOrigin())) void deps.openExternal(url);
      return { action: 'deny' };
    });
    contents.onWillNavigate((event, url) => {
      if (!isAllowedNavigation(url, serviceOrigin())) event.preventDefault();
    });
    contents.onWillAttachWebview((event) => event.preventDefault());
  });
}
