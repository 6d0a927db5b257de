import type { MintRequest } from '../../api/tokens';

/**
 * Minting through the ad-hoc runner, as the original system's client does (docs/scripting.md):
 * the runner runs a script that returns `org.objects.accounts.createAuthToken(key, subject, options)`.
 * The app key, subject and options travel as `script.arguments`, never spliced into the source, so
 * no field of the form can change what the script does.
 */
export const MINT_SCRIPT = `const { key, subject, options } = script.arguments;
return org.objects.accounts.createAuthToken(key, subject, options);
`;

export interface ScriptMintArguments {
  key: string;
  subject: string;
  options: Omit<MintRequest, 'app'> & { includeEmail: boolean };
}

/** The runner's arguments for the lab's mint form (`request` is the checked REST body). */
export function scriptMintArguments(request: MintRequest, subject: string, includeEmail: boolean): ScriptMintArguments {
  const { app, ...options } = request;
  return { key: app, subject, options: { ...options, includeEmail } };
}

/** The runner's answer must be a JWT string; anything else is reported, not shown as a token. */
export function tokenOfRunValue(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value) ? value : null;
}
