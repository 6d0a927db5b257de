import type { OperationTable } from './operation-doc.js';

/** Every operation of the service, described (one table per area). */
export const OPERATIONS: OperationTable = {};
