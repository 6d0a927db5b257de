import { Field } from '../../components/Field';
import type { DeploymentForm } from './deployment-draft';

type Set = <K extends keyof DeploymentForm>(key: K, value: DeploymentForm[K]) => void;

/** Why another org's credential is needed and how to get one, in plain words. */
function TokenHelp({ org, name }: { org: string; name: string }) {
  return (
    <p className="note deployment-credential__help" data-testid="deployment-credential-help">
      Being an administrator here says nothing about <code>{org}</code>: it lets this deployment in only with a
      credential it issued. Ask an administrator of <code>{org}</code> to sign in to <code>{org}</code>, open the{' '}
      <strong>Token lab</strong>, mint a token for their own account with the scope <code>deployment.execute</code> (or{' '}
      <code>deployment.execute.{name || '<name>'}</code> for this deployment only) that never expires (
      <em>Expires: Never</em>), and give it to you. Paste it here: it is stored encrypted and never shown again.{' '}
      <code>{org}</code> can revoke it at any time, and sees every run in its own log.
    </p>
  );
}

/** The source org's token (another org than this one is read only with a token it minted). */
export function SourceCredential({ form, set }: { form: DeploymentForm; set: Set }) {
  return (
    <fieldset className="deployment-credential" data-testid="deployment-source-credential">
      <legend>Credential of {form.sourceOrg}</legend>
      <TokenHelp org={form.sourceOrg} name={form.name.trim()} />
      <Field label={`Token minted in ${form.sourceOrg}`} wide>
        <textarea
          className="input input--mono deployment-credential__token"
          data-testid="deployment-source-token"
          spellCheck={false}
          autoComplete="off"
          value={form.sourceToken}
          onChange={(e) => set('sourceToken', e.target.value)}
        />
      </Field>
    </fieldset>
  );
}

/** The target's credential: a token it minted, or (and always for a URL target) one of its signing apps. */
export function TargetCredential({ form, set }: { form: DeploymentForm; set: Set }) {
  const org = form.targetOrg.trim() || 'the target org';
  const useApp = form.targetKind === 'url' || form.credential === 'app';
  return (
    <fieldset className="deployment-credential" data-testid="deployment-target-credential">
      <legend>Credential of {org}</legend>
      {form.targetKind !== 'url' && (
        <div className="deployment-credential__kinds" role="radiogroup" aria-label="Kind of credential">
          {(['token', 'app'] as const).map((kind) => (
            <label key={kind} className="check">
              <input
                type="radio"
                name="deployment-credential"
                data-testid={`deployment-credential-${kind}`}
                checked={form.credential === kind}
                onChange={() => set('credential', kind)}
              />
              {kind === 'token' ? 'A token it minted' : 'One of its signing apps'}
            </label>
          ))}
        </div>
      )}
      {!useApp && (
        <>
          <TokenHelp org={org} name={form.name.trim()} />
          <Field label={`Token minted in ${org}`} wide>
            <textarea
              className="input input--mono deployment-credential__token"
              data-testid="deployment-target-token"
              spellCheck={false}
              autoComplete="off"
              value={form.targetToken}
              onChange={(e) => set('targetToken', e.target.value)}
            />
          </Field>
        </>
      )}
      {useApp && (
        <>
          <p className="note deployment-credential__help">
            The key and secret of a signing app of <code>{org}</code> whose principal is one of its administrators (made
            on its <strong>Applications</strong> screen, or with <code>npm run admin -- app create --signing</code> on
            its data folder). The secret is stored encrypted and never shown again; regenerating it or disabling the app
            there ends this deployment’s access.
          </p>
          <div className="form-grid">
            <Field label="App key">
              <input
                className="input input--mono"
                data-testid="deployment-target-app-key"
                autoComplete="off"
                value={form.targetAppKey}
                onChange={(e) => set('targetAppKey', e.target.value)}
              />
            </Field>
            <Field label="App secret">
              <input
                className="input input--mono"
                type="password"
                data-testid="deployment-target-secret"
                autoComplete="off"
                value={form.targetSecret}
                onChange={(e) => set('targetSecret', e.target.value)}
              />
            </Field>
          </div>
        </>
      )}
    </fieldset>
  );
}
