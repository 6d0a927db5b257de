import type { ObjectDef } from '../../../src-shared/schema/types.js';

/** Where a deployment goes: another org of this data folder, an org of another data folder, or an org of another service. */
export const DEPLOYMENT_TARGET_KINDS = ['org', 'folder', 'url'] as const;
export type DeploymentTargetKind = (typeof DEPLOYMENT_TARGET_KINDS)[number];

/**
 * A deployment: a stored, named export (manifest + source org) and where it goes. Records of a
 * built-in type with no ACL fallback, so only org administrators (or tokens with
 * `object.create.deployment` of one) make them; `deployment.execute.<_id>` runs one.
 *
 * Another org is never read or written on the strength of an administrator here (docs/orgs-and-apps.md,
 * environment/deployment-access.ts): a `sourceOrg` other than the org holding the deployment needs
 * `sourceToken`, a token that org minted (scope `deployment.execute`) for one of its administrators;
 * a target org other than this one needs `targetToken`, or `targetAppKey` / `targetSecret` of a
 * signing app of that org whose principal is an administrator there.
 *
 * Targets (`targetKind`, default `org`): `targetOrg` always names the org written to —
 *   org:    an org of this data folder;
 *   folder: an org of the data folder at `targetDataDir` (opened for the run; the operator only);
 *   url:    an org of the service at `targetUrl`, reached with requests signed (docs/signing.md,
 *           version 2) by the signing app `targetAppKey` / `targetSecret` of that org, whose
 *           principal must be an administrator there.
 * Tokens and secrets are encrypted at rest like app secrets and never returned (`hidden`).
 */
export const DEPLOYMENT_DEF: ObjectDef = {
  name: 'deployment',
  collection: 'deployments',
  label: 'Deployment',
  custom: false,
  properties: [
    { name: 'name', type: 'String', indexed: true, unique: true, required: true, maxLength: 100 },
    { name: 'label', type: 'String', maxLength: 200 },
    { name: 'description', type: 'String', maxLength: 2000 },
    /** Org code the configuration is exported from; absent: the org the deployment belongs to. */
    { name: 'sourceOrg', type: 'String', maxLength: 64 },
    { name: 'targetOrg', type: 'String', required: true, maxLength: 64 },
    { name: 'targetKind', type: 'String', enum: [...DEPLOYMENT_TARGET_KINDS] },
    { name: 'targetDataDir', type: 'String', maxLength: 4096 },
    { name: 'targetUrl', type: 'String', maxLength: 2048 },
    { name: 'targetAppKey', type: 'String', maxLength: 64 },
    { name: 'targetSecret', type: 'String', maxLength: 512, hidden: true },
    { name: 'sourceToken', type: 'String', maxLength: 16_384, hidden: true },
    { name: 'targetToken', type: 'String', maxLength: 16_384, hidden: true },
    /** The export manifest, as JSON text (manifests are free-form, so not a typed document). */
    { name: 'manifest', type: 'String', required: true, maxLength: 100_000 },
  ],
};
