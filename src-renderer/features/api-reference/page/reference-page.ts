/**
 * The API reference page (`/_service/docs`, and framed by the console's API reference screen):
 * Scalar's standalone renderer over `/_service/openapi.json`, offline, with "try it" sending
 * requests in the console's session. See docs/API.md for why Scalar.
 */
import { applyTheme, type Theme } from '../../../components/theme';
import { documentFor, type OpenApiDocument } from './reference-document';
import { referenceFetch, type ReferenceSession } from './reference-fetch';
import { completeComboboxes } from './reference-aria';
import { followTheme } from './reference-theme';
import type { ScalarGlobal } from './scalar';
import '../../../styles/tokens.css';
import './reference-page.css';

interface ServiceInfo {
  data: { defaultOrg: string | null; orgs: { code: string; consoleAppKey: string | null }[] };
}

/** Renderer settings that keep it offline and quiet: no fonts, telemetry, AI agent or hosted client. */
const OFFLINE = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: 'never',
  hideDarkModeToggle: true,
  documentDownloadType: 'json',
  defaultOpenFirstTag: true,
};

const status = document.getElementById('reference-status');

/** The renderer's colour mode follows the console's: it keeps its mode as a class on <body>. */
function switchMode(theme: Theme): void {
  document.body.classList.toggle('dark-mode', theme === 'dark');
  document.body.classList.toggle('light-mode', theme === 'light');
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`The renderer did not load (${src}).`));
    document.head.append(script);
  });
}

async function start(): Promise<void> {
  const wanted = new URLSearchParams(window.location.search).get('org');
  const info = (await (await fetch('/_service/info')).json()) as ServiceInfo;
  const { orgs, defaultOrg } = info.data;
  const org = orgs.find((o) => o.code === wanted) ?? orgs.find((o) => o.code === defaultOrg) ?? orgs[0];
  const session: ReferenceSession = { org: org?.code ?? '', appKey: org?.consoleAppKey ?? null, csrf: null };
  const send = referenceFetch(session, window.location.origin, (input, init) => fetch(input, init));
  // The session's CSRF token comes with any answer in the session: status answers every caller.
  if (org) await send(`/${encodeURIComponent(org.code)}/v2/accounts/status`);
  const described = await send('/_service/openapi.json');
  if (!described.ok) throw new Error(`The service sent no API description (${described.status}).`);
  const doc = documentFor((await described.json()) as OpenApiDocument, session.org || 'demo');
  await loadScript(`${import.meta.env.BASE_URL}api-reference/scalar.js`);
  const scalar = (window as unknown as { Scalar: ScalarGlobal }).Scalar;
  let started = false;
  followTheme((theme) => {
    applyTheme(theme);
    if (started) return switchMode(theme);
    started = true;
    scalar.createApiReference('#reference', {
      ...OFFLINE,
      content: doc,
      customFetch: send,
      darkMode: theme === 'dark',
      forceDarkModeState: theme,
      // What "try it" shows it sends (the page's fetch sends them whatever is shown).
      // (No CSRF token without a session: signed out, only the app key is shown.)
      authentication:
        session.csrf === null
          ? { preferredSecurityScheme: 'appKey', securitySchemes: { appKey: { value: session.appKey ?? '' } } }
          : {
              preferredSecurityScheme: [['appKey', 'csrf']],
              securitySchemes: { appKey: { value: session.appKey ?? '' }, csrf: { value: session.csrf } },
            },
    });
  });
  const root = document.getElementById('reference');
  if (root) completeComboboxes(root);
  status?.remove();
}

start().catch((error: unknown) => {
  if (status) status.textContent = error instanceof Error ? error.message : String(error);
});
