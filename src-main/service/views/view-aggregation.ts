/**
 * A view's `group` and `pipeline` components (docs/views.md): the view aggregates over
 * its source as it lists it, with the same variables. `pipeline` stands alone (where and sort are
 * refused beside it, as the original's parser refuses them); `group` takes the view's `where`
 * before it and a `sort` that may name its outputs. `map` stays refused.
 */
import { FaultError, fault } from '../../../src-shared/faults.js';
import type { ObjectDef } from '../../../src-shared/schema/types.js';
import type { Pipeline } from '../../../src-shared/query/pipeline/ast.js';
import { parseAggregation } from '../../../src-shared/query/pipeline/list-arguments.js';
import type { PipelineParseOptions } from '../../../src-shared/query/pipeline/parse-pipeline.js';
import { fillAll, fillTemplate, type Template } from './template.js';
import type { VariableComponent } from './view-variables.js';

export interface AggregationTemplates {
  where?: Template;
  sort?: Template;
  group?: Template;
  pipeline?: Template;
}

/** Whether the components make the view an aggregation. */
export function aggregates(view: AggregationTemplates): boolean {
  return view.group !== undefined || view.pipeline !== undefined;
}

/** The pipeline of one run, the variables filled from the request's arguments. */
export function aggregationOf(
  view: AggregationTemplates,
  source: ObjectDef,
  args: Record<string, unknown>,
  options: PipelineParseOptions,
): Pipeline {
  const fill = (t: Template | undefined) => (t ? fillTemplate(t, args) : undefined);
  return parseAggregation(
    { pipeline: fill(view.pipeline), group: fill(view.group), where: fill(view.where), sort: fill(view.sort) },
    source,
    options,
  )!;
}

/**
 * Checked when the view is saved: `pipeline` beside `where` or `sort` is refused, and the
 * aggregation must parse; variables stand in as null, so only faults at a variable's own spot are
 * left to the run's arguments.
 */
export function checkAggregation(view: AggregationTemplates, source: ObjectDef, options: PipelineParseOptions): void {
  if (view.pipeline && (view.where || view.sort || view.group)) {
    throw fault('validation', 'view', {
      path: 'query',
      reason: 'A pipeline component stands alone: where, sort and group are incompatible with pipeline.',
    });
  }
  const templates = [view.pipeline, view.group, view.where, view.sort].filter((t): t is Template => !!t);
  const fill = (t: Template | undefined) => (t ? fillAll(t, null) : undefined);
  try {
    parseAggregation(
      { pipeline: fill(view.pipeline), group: fill(view.group), where: fill(view.where), sort: fill(view.sort) },
      source,
      options,
    );
  } catch (err) {
    const at = err instanceof FaultError ? err.fault.path : undefined;
    if (at && templates.some((t) => t.locations.some((l) => at.startsWith(l.path)))) return;
    if (err instanceof FaultError) {
      throw fault('validation', 'view', {
        path: 'query',
        reason: `${err.fault.path ? `${err.fault.path}: ` : ''}${err.fault.reason ?? err.fault.message}`,
      });
    }
    throw err;
  }
}

/**
 * The components of an aggregating view for the check of its declared variables
 * (view-variables.ts): each parses the whole aggregation with its own tree as given and the other
 * components' variables standing in as null; a fault at one of those other spots is theirs.
 */
export function aggregationComponents(
  view: AggregationTemplates,
  source: ObjectDef,
  options: PipelineParseOptions,
): VariableComponent[] {
  const names = (['pipeline', 'group', 'where', 'sort'] as const).filter((n) => view[n] !== undefined);
  return names.map((name) => ({
    template: view[name]!,
    parse: (tree: unknown) => {
      const filled = Object.fromEntries(names.map((n) => [n, n === name ? tree : fillAll(view[n]!, null)]));
      try {
        parseAggregation(filled, source, options);
      } catch (err) {
        const at = err instanceof FaultError ? err.fault.path : undefined;
        const others = names.filter((n) => n !== name).flatMap((n) => view[n]!.locations);
        if (at && others.some((l) => at.startsWith(l.path))) return;
        throw err;
      }
    },
  }));
}
