/**
 * The service's own pipeline parser, run in the console for instant checks (the same module the
 * service runs, as the where bar uses the shared where parser). Until the parser is on main
 * (issue 42, branch wip/aggregate) this is undefined and the checks are the service's answers to
 * the previews, which name the stage just the same.
 */
import type { PipelineParser } from './check-stages';

export const sharedPipelineParser: PipelineParser | undefined = undefined;
