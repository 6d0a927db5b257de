/**
 * The original client's own token minting, end to end (docs/scripting.md, issue #16): a
 * session login, a runner call with the client's script (app key from the `service-client-key`
 * header, `createAuthToken(..., {permanent, scope:['*'], includeEmail})`), logout, then the
 * client's token credentials (which refuse a JWT without `service/eml` or with an `iss` that is not
 * an app key) calling with `Authorization: Bearer` and `Service-Client-Key: <iss>`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { loadRewrittenMdctl, type MdctlModule } from './mdctl-client.js';
import { LIVE_ADMIN_EMAIL, LIVE_ADMIN_PASSWORD, startLiveService, type LiveService } from './live-service.js';

let mdctl: MdctlModule;
let live: LiveService;

beforeAll(async () => {
  mdctl = loadRewrittenMdctl(() => undefined);
  live = await startLiveService();
}, 60_000);

afterAll(async () => {
  await live?.close();
  mdctl?.cleanup();
});

/** The script the original client posts to mint its token (same logic, our vendor word). */
const MINT_SCRIPT = `
  const key = require('request').getHeader('service-client-key');
  return org.objects.accounts.createAuthToken(key, script.principal._id, {
    permanent: true,
    scope: ['*'],
    includeEmail: true
  });
`;

it('mints a token through the runner with a session, then calls with it as Bearer', async () => {
  const session = new mdctl.Client({
    environment: { endpoint: live.endpoint, env: live.org },
    credentials: {
      type: 'password',
      apiKey: live.consoleAppKey,
      username: LIVE_ADMIN_EMAIL,
      password: LIVE_ADMIN_PASSWORD,
    },
  });
  const me = (await session.post('accounts/login', { email: LIVE_ADMIN_EMAIL, password: LIVE_ADMIN_PASSWORD })) as {
    _id: string;
  };
  const minted = (await session.post('sys/script_runner', {
    script: MINT_SCRIPT,
    language: 'javascript',
    specification: 'es6',
  })) as unknown;
  const jwt = typeof minted === 'string' ? minted : (minted as { data: string }).data;
  await session.post('accounts/me/logout', {}).catch(() => undefined);

  const claims = decodeJwt(jwt);
  expect(claims.iss).toBe(live.consoleAppKey);
  expect(claims.sub).toBe(me._id);
  expect(claims['service/eml']).toBe(LIVE_ADMIN_EMAIL);
  expect(claims['service/scp']).toEqual(['*']);
  expect(claims.exp).toBeUndefined();

  const bearer = new mdctl.Client({
    environment: { endpoint: live.endpoint, env: live.org },
    credentials: { type: 'token', token: jwt },
  });
  expect(await bearer.get('accounts/me')).toMatchObject({ _id: me._id, email: LIVE_ADMIN_EMAIL });
}, 60_000);
