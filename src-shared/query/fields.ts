/**
 * Resolves property paths through an object definition into `FieldRef`s: the allow-list step of
 * the query pipeline. A path that does not resolve is a fault, never passed through.
 */
import { PATH_SEGMENT_PATTERN, type PropertyDef } from '../schema/types.js';
import type { FieldAccess, FieldRef } from './ast.js';
import { queryFault, unsupportedFault } from './faults.js';

export interface ResolvedField {
  field: FieldRef;
  /** The leaf property's definition. */
  def: PropertyDef;
  /** `indexed` or `unique`: may be matched and sorted. */
  indexed: boolean;
}

/**
 * @param properties the properties the path starts from: a definition's `allProperties`, or an
 *   array-of-documents' element properties inside `$elemMatch`.
 * @param displayPath the path as the caller sees it, for fault reasons (e.g. the full path of an
 *   element property).
 */
export function resolveField(
  properties: PropertyDef[],
  path: string,
  faultPath: string,
  displayPath = path,
): ResolvedField {
  const segments = path.split('.');
  if (segments.some((s) => !PATH_SEGMENT_PATTERN.test(s))) {
    throw queryFault(`"${displayPath}" is not a valid property path.`, faultPath);
  }
  const defs: PropertyDef[] = [];
  let props: PropertyDef[] | undefined = properties;
  for (const segment of segments) {
    const found: PropertyDef | undefined = props?.find((p) => p.name === segment);
    if (!found) throw queryFault(`Unknown property "${displayPath}".`, faultPath);
    defs.push(found);
    props = found.type === 'Document' ? (found.properties ?? []) : undefined;
  }
  const leaf = defs[defs.length - 1];
  if (!leaf) throw queryFault(`Unknown property "${displayPath}".`, faultPath);
  if (leaf.type === 'List') {
    throw queryFault(
      `"${displayPath}" is a list property; query it with its own prefixed arguments (${displayPath}.where).`,
      faultPath,
    );
  }
  const arrayIndexes = defs.flatMap((d, i) => (d.array === true ? [i] : []));
  if (arrayIndexes.length > 1) {
    throw unsupportedFault(`"${displayPath}" crosses more than one array, which queries don't support.`, faultPath);
  }
  const arrayIndex = arrayIndexes[0];
  const idSuffix = leaf.type === 'Reference' ? '_id' : '';
  let access: FieldAccess;
  if (leaf.type === 'Document') {
    if (arrayIndex !== undefined && arrayIndex !== defs.length - 1) {
      throw unsupportedFault(`"${displayPath}" is a document inside an array, which queries don't support.`, faultPath);
    }
    access = { kind: 'container', storagePath: path, isArray: leaf.array === true };
  } else if (arrayIndex === undefined) {
    access = { kind: 'value', storagePath: idSuffix ? `${path}.${idSuffix}` : path };
  } else {
    const arrayPath = segments.slice(0, arrayIndex + 1).join('.');
    const rest = [...segments.slice(arrayIndex + 1), ...(idSuffix ? [idSuffix] : [])];
    access = { kind: 'elements', arrayPath, elementPath: rest.join('.') };
  }
  return {
    field: { path, type: leaf.type, access },
    def: leaf,
    indexed: leaf.indexed === true || leaf.unique === true,
  };
}
