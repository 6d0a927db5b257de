import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The window's settings, in one place so a test can check them without starting Electron:
 * isolation and sandbox on, no Node in the page, no remote content beyond our loopback origin.
 */
export function secureWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 840,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Typed Object Console',
    webPreferences: {
      preload: preloadPath,
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
