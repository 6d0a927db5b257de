/**
 * What a new stage card starts with: a small, valid example of the operator over the
 * collection's own properties (group by its first indexed text property, unwind its first array),
 * so the preview shows something at once and the shape of the stage is visible. Paths are bare
 * (`"locale"`, never `"$locale"`), as the original's language writes them
 * (docs/query-semantics.md, Aggregation).
 */
import { propertyPaths, type ObjectDef } from '../../../../src-shared/schema/types';
import { compactJson } from './stage-cards';

/** The stages the builder offers, in the order a pipeline usually has them. */
export const STAGE_OPERATORS = [
  '$match',
  '$group',
  '$sort',
  '$project',
  '$addFields',
  '$unwind',
  '$count',
  '$sortByCount',
  '$skip',
  '$limit',
] as const;

export const STAGE_HINTS: Readonly<Record<string, string>> = {
  $match: 'Keeps the documents that match a where condition.',
  $group: 'One document per distinct _id (a bare path, an expression), with accumulators ($sum, $avg, …).',
  $sort: 'Orders the documents: {"path": 1 | -1}.',
  $project: 'Keeps, drops or computes properties.',
  $addFields: 'Adds computed properties.',
  $unwind: 'One document per element of an array.',
  $count: 'One document with the number of documents.',
  $sortByCount: 'Groups by a value and sorts by the count, largest first.',
  $skip: 'Skips a number of documents.',
  $limit: 'Keeps the first documents.',
};

interface TemplatePaths {
  group: string;
  date: string | undefined;
  array: string | undefined;
}

function templatePaths(def: ObjectDef): TemplatePaths {
  const paths = propertyPaths(def);
  const scalar = paths.filter((p) => !p.inArray && p.def.type !== 'Document' && p.def.type !== 'List');
  const groupable = scalar.find(
    (p) => p.def.type === 'String' && p.def.indexed === true && p.def.unique !== true && p.def.hidden !== true,
  );
  const date = scalar.find((p) => p.def.type === 'Date' && p.path !== 'updated');
  const array = paths.find(
    (p) => p.def.array === true && p.def.type !== 'Document' && p.def.hidden !== true && !p.path.includes('.'),
  );
  return { group: groupable?.path ?? '_id', date: date?.path, array: array?.path };
}

/** The starting text of a new card of `operator` on this collection. */
export function stageTemplate(operator: string, def: ObjectDef): string {
  const paths = templatePaths(def);
  switch (operator) {
    case '$match':
      return '{}';
    case '$group':
      return compactJson({ _id: paths.group, count: { $sum: 1 } });
    case '$sort':
      return compactJson({ _id: 1 });
    case '$project':
      return compactJson({ _id: 1, [paths.group]: 1 });
    case '$addFields':
      return paths.date ? compactJson({ year: { $year: paths.date } }) : compactJson({ copy: paths.group });
    case '$unwind':
      return compactJson(paths.array ?? paths.group);
    case '$count':
      return compactJson('count');
    case '$sortByCount':
      return compactJson(paths.group);
    case '$skip':
      return '10';
    case '$limit':
      return '10';
    default:
      return '{}';
  }
}
