import type { DeploymentDraft } from '../../api/environment';

/** The new-deployment form as typed. `sourceOrg` empty: this org. */
export interface DeploymentForm {
  name: string;
  sourceOrg: string;
  sourceToken: string;
  targetKind: 'org' | 'folder' | 'url';
  targetOrg: string;
  targetDataDir: string;
  targetUrl: string;
  /** How the target org lets the deployment in: a token it minted, or one of its signing apps. */
  credential: 'token' | 'app';
  targetToken: string;
  targetAppKey: string;
  targetSecret: string;
  manifest: string;
}

export const EMPTY_DEPLOYMENT_FORM: DeploymentForm = {
  name: '',
  sourceOrg: '',
  sourceToken: '',
  targetKind: 'org',
  targetOrg: '',
  targetDataDir: '',
  targetUrl: '',
  credential: 'token',
  targetToken: '',
  targetAppKey: '',
  targetSecret: '',
  manifest: '{\n  "includes": ["*"]\n}',
};

/**
 * Which credentials the form must ask for (docs/orgs-and-apps.md): another source org than this one needs a
 * token of its own; any target other than this org needs one of the target's (a URL target, the
 * key and secret of one of its signing apps).
 */
export function credentialsNeeded(form: DeploymentForm, thisOrg: string): { source: boolean; target: boolean } {
  const source = form.sourceOrg !== '' && form.sourceOrg !== thisOrg;
  const target = form.targetKind !== 'org' || (form.targetOrg !== '' && form.targetOrg !== thisOrg);
  return { source, target };
}

/** The draft's free-text fields, sent only when filled in. */
type TextField = 'sourceToken' | 'targetDataDir' | 'targetUrl' | 'targetToken' | 'targetAppKey' | 'targetSecret';

/** The request for the form: only the fields its source and target kinds use, trimmed. */
export function deploymentDraft(form: DeploymentForm, thisOrg: string): DeploymentDraft {
  const needs = credentialsNeeded(form, thisOrg);
  const draft: DeploymentDraft = { name: form.name.trim(), targetOrg: form.targetOrg.trim(), manifest: form.manifest };
  // An empty credential is left out, so the service's answer says which one is missing and why.
  const put = (key: TextField, value: string) => {
    if (value.trim() !== '') draft[key] = value.trim();
  };
  if (needs.source) {
    draft.sourceOrg = form.sourceOrg;
    put('sourceToken', form.sourceToken);
  }
  if (form.targetKind !== 'org') draft.targetKind = form.targetKind;
  if (form.targetKind === 'folder') put('targetDataDir', form.targetDataDir);
  if (form.targetKind === 'url') put('targetUrl', form.targetUrl);
  if (!needs.target) return draft;
  if (form.targetKind !== 'url' && form.credential === 'token') {
    put('targetToken', form.targetToken);
  } else {
    put('targetAppKey', form.targetAppKey);
    put('targetSecret', form.targetSecret);
  }
  return draft;
}
