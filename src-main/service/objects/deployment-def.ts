import type { ObjectDef } from '../../../src-shared/schema/types.js';

/**
 * A deployment: a stored, named export (manifest + source org) and the org it goes to, in the
 * same data folder. Records of a built-in type with no ACL fallback, so only org administrators
 * (or tokens with `object.create.deployment` of one) make them; `deployment.execute.<_id>` runs one.
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
    /** The export manifest, as JSON text (manifests are free-form, so not a typed document). */
    { name: 'manifest', type: 'String', required: true, maxLength: 100_000 },
  ],
};
