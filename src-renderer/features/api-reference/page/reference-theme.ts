import { initialTheme, type Theme } from '../../../components/theme';

/** The console document framing this page, when there is one on the same origin. */
function consoleDocument(): Document | undefined {
  try {
    return window.parent !== window ? window.parent.document : undefined;
  } catch {
    return undefined; // framed by another origin: its document is out of reach
  }
}

const themeOf = (doc: Document): Theme | undefined => {
  const value = doc.documentElement.dataset.theme;
  return value === 'light' || value === 'dark' ? value : undefined;
};

/**
 * The page's theme: the console's when it frames the page (and whenever it changes there), else
 * the one the console saved, else the system's.
 */
export function followTheme(apply: (theme: Theme) => void): void {
  const parent = consoleDocument();
  apply((parent && themeOf(parent)) ?? initialTheme());
  if (!parent) return;
  new MutationObserver(() => {
    const theme = themeOf(parent);
    if (theme) apply(theme);
  }).observe(parent.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
}
