/**
 * The store's compiles of lists and pipelines, kept where they can be (compiled-queries.ts): a
 * read with no condition the service adds (an empty `extraWhere`) and no keyset continuation.
 */
import type { ListQuery } from '../../../src-shared/query/ast.js';
import type { Pipeline } from '../../../src-shared/query/pipeline/ast.js';
import { compileListQuery, type CompileOptions } from './compile.js';
import { CompiledQueries } from './compiled-queries.js';
import { compilePipeline, type CompiledPipeline, type PipelineCompileOptions } from './pipeline/compile-pipeline.js';
import type { SqlFragment } from './sql-fragment.js';

export class KeptCompiles {
  private readonly lists = new CompiledQueries<ListQuery, SqlFragment>();
  private readonly pipelines = new CompiledQueries<Pipeline, CompiledPipeline>();

  list(query: ListQuery, options: CompileOptions): SqlFragment {
    if ((options.extraWhere?.length ?? 0) > 0 || options.after !== undefined) return compileListQuery(query, options);
    return this.lists.get(query, [options.table, options.columns], options.withKeys ? 'keys' : '', () =>
      compileListQuery(query, options),
    );
  }

  /**
   * The documents' properties are part of what the SQL is built from: kept by identity, they match
   * for callers given the same list (records/aggregate.ts keeps one per definition for the callers
   * who may read every property).
   */
  pipeline(pipeline: Pipeline, options: PipelineCompileOptions): CompiledPipeline {
    if ((options.extraWhere?.length ?? 0) > 0) return compilePipeline(pipeline, options);
    return this.pipelines.get(
      pipeline,
      [options.table, options.columns, options.properties],
      `${options.skip}:${options.limit}:${options.pruned}`,
      () => compilePipeline(pipeline, options),
    );
  }
}
