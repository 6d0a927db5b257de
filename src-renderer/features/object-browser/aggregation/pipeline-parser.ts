/**
 * The service's own pipeline parser, run in the console for instant checks (the same module the
 * service runs, as the where bar uses the shared where parser): a fault names the stage and the
 * spot (`pipeline[1].$group._id`) before any request. The service still checks what is sent.
 */
import { parsePipeline } from '../../../../src-shared/query/pipeline/parse-pipeline';
import type { PipelineParser } from './check-stages';

export const sharedPipelineParser: PipelineParser | undefined = (stages, def) => parsePipeline(stages, def);
