import { describe, expect, it } from 'vitest';
import { credentialsNeeded, deploymentDraft, EMPTY_DEPLOYMENT_FORM, type DeploymentForm } from './deployment-draft';

const form = (patch: Partial<DeploymentForm>): DeploymentForm => ({
  ...EMPTY_DEPLOYMENT_FORM,
  name: ' to_staging ',
  manifest: '{}',
  ...patch,
});

describe('the new-deployment form', () => {
  it('asks for a credential of every other org it reads or writes, and none for this org', () => {
    expect(credentialsNeeded(form({ targetOrg: 'staging' }), 'demo')).toEqual({ source: false, target: true });
    expect(credentialsNeeded(form({ sourceOrg: 'staging', targetOrg: 'demo' }), 'demo')).toEqual({
      source: true,
      target: false,
    });
    expect(credentialsNeeded(form({ sourceOrg: 'demo', targetOrg: 'demo' }), 'demo')).toEqual({
      source: false,
      target: false,
    });
    expect(credentialsNeeded(form({ targetKind: 'folder', targetOrg: 'demo' }), 'demo').target).toBe(true);
  });

  it('sends a target token, or a signing app, only where the target needs one', () => {
    expect(deploymentDraft(form({ targetOrg: 'staging', targetToken: ' a.b.c ' }), 'demo')).toEqual({
      name: 'to_staging',
      targetOrg: 'staging',
      targetToken: 'a.b.c',
      manifest: '{}',
    });
    expect(
      deploymentDraft(
        form({ targetOrg: 'staging', credential: 'app', targetAppKey: 'k', targetSecret: 's', targetToken: 'x' }),
        'demo',
      ),
    ).toEqual({ name: 'to_staging', targetOrg: 'staging', targetAppKey: 'k', targetSecret: 's', manifest: '{}' });
    expect(
      deploymentDraft(form({ sourceOrg: 'staging', sourceToken: 't', targetOrg: 'demo', targetToken: 'x' }), 'demo'),
    ).toEqual({ name: 'to_staging', sourceOrg: 'staging', sourceToken: 't', targetOrg: 'demo', manifest: '{}' });
  });

  it('always sends a URL target’s signing app, and the folder of a folder target', () => {
    expect(
      deploymentDraft(
        form({
          targetKind: 'url',
          targetUrl: 'http://127.0.0.1:7790 ',
          targetOrg: 'prod',
          targetToken: 'x',
          targetAppKey: 'k',
          targetSecret: 's',
        }),
        'demo',
      ),
    ).toEqual({
      name: 'to_staging',
      targetKind: 'url',
      targetUrl: 'http://127.0.0.1:7790',
      targetOrg: 'prod',
      targetAppKey: 'k',
      targetSecret: 's',
      manifest: '{}',
    });
    expect(
      deploymentDraft(
        form({ targetKind: 'folder', targetDataDir: '/srv/x', targetOrg: 'prod', targetToken: 't' }),
        'demo',
      ),
    ).toMatchObject({ targetKind: 'folder', targetDataDir: '/srv/x', targetToken: 't' });
  });
});

describe('an empty credential', () => {
  it('is left out, so the service says which one is missing', () => {
    expect(deploymentDraft(form({ targetOrg: 'staging', targetToken: '  ' }), 'demo')).toEqual({
      name: 'to_staging',
      targetOrg: 'staging',
      manifest: '{}',
    });
  });
});
