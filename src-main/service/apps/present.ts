import type { App, AppRepository } from './apps.js';
import type { ApiApp } from '../../../src-shared/contracts/apps.js';

export type { ApiApp } from '../../../src-shared/contracts/apps.js';

export const SECRET_MASK = '••••…';

/** Enough of a secret to tell two apart, not enough to use one. */
export const maskSecret = (secret: string): string => SECRET_MASK + secret.slice(-4);

/**
 * Presents an app. `revealSecret` is the freshly created or rotated secret, shown in full once;
 * otherwise the stored secret is shown masked.
 */
export function presentApp(apps: AppRepository, app: App, revealSecret?: string): ApiApp {
  const s = app.settings;
  let secret: string | null = null;
  if (revealSecret !== undefined) secret = revealSecret;
  else if (app.hasSecret) secret = maskSecret(apps.secret(app) ?? '');
  return {
    object: 'app',
    key: app.key,
    kind: app.kind,
    label: s.label,
    enabled: s.enabled,
    readOnly: s.readOnly,
    expires: s.expires,
    authDuration: s.authDuration,
    csrf: s.csrf,
    allowUnsigned: s.allowUnsigned,
    requireSignatureV2: s.requireSignatureV2,
    principalOverride: s.principalOverride,
    principalId: s.principalId,
    maxTokensPerPrincipal: s.maxTokensPerPrincipal,
    expose: s.expose,
    alg: s.alg,
    corsOrigins: s.corsOrigins,
    ipAllow: s.ipAllow,
    ipDeny: s.ipDeny,
    ...(s.name !== undefined ? { name: s.name } : {}),
    allowNameMapping: s.allowNameMapping === true,
    hasSecret: app.hasSecret,
    secret,
    rsa: apps.currentKeyInfo(app.id) ?? null,
    created: app.created,
  };
}
