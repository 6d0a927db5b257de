import type { OperationTable } from './operation-doc.js';
import { ACCOUNT_OPERATIONS } from './operations-accounts.js';
import { APP_OPERATIONS } from './operations-apps.js';
import { MODEL_OPERATIONS } from './operations-model.js';
import { JOB_OPERATIONS } from './operations-jobs.js';
import { RECORD_OPERATIONS } from './operations-records.js';
import { SERVICE_OPERATIONS } from './operations-service.js';

/** Every operation of the service, described (one table per area). */
export const OPERATIONS: OperationTable = {
  ...SERVICE_OPERATIONS,
  ...ACCOUNT_OPERATIONS,
  ...APP_OPERATIONS,
  ...RECORD_OPERATIONS,
  ...MODEL_OPERATIONS,
  ...JOB_OPERATIONS,
};
