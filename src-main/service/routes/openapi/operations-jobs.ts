import type { OperationTable } from './operation-doc.js';
import { listOf } from './components.js';
import { SCRIPT_ANSWER, SCRIPT_FAULTS } from './operations-model.js';

const ADMIN = 'accessDenied: the caller is not an org administrator, or its token lacks the admin scope.';

/** Jobs (issue 41, routes/jobs.ts). Logs and audit entries are read through the object routes (`/logs`, `/audits`). */
export const JOB_OPERATIONS: OperationTable = {
  'GET /{org}/v2/jobs': {
    summary: 'List job scripts with their schedules',
    description: "Every job script (records and libraries' @job): its cron, next run (UTC) and latest runs.",
    tag: 'Scripts',
    caller: 'admin',
    answer: { description: 'Every job of the org.', schema: listOf({ type: 'object' }) },
    faults: { 403: ADMIN },
  },
  'POST /{org}/v2/scripts/{id}/run': {
    summary: 'Run a job now',
    description: 'Runs a job script now, whatever its schedule or active flag, answered as the runner answers.',
    tag: 'Scripts',
    caller: 'admin',
    answer: SCRIPT_ANSWER,
    faults: {
      ...SCRIPT_FAULTS,
      404: 'notFound.job: no job script with a valid schedule has this _id.',
      409: 'conflict.job.running: the job is running; try again when it ends.',
    },
  },
};
