import type { Service } from '../service.js';
import { recordRules } from '../records/rules.js';
import { VIEW_DEF } from '../objects/view-def.js';
import { compileView } from './compile-view.js';

/**
 * A view record must compile (its query parses against its source object) on every write
 * (records/rules.ts): saving a view runs the checks a run would.
 */
export function registerViewRecordRules(svc: Service): void {
  recordRules(svc).register(VIEW_DEF.name, 'compiles', ({ org, merged, current }) => {
    compileView(svc, org, current?._id ?? '', merged);
  });
}
