/**
 * A record as the drawer's tree shows it (issue 44 item 10): each value with its key, its path
 * (Mongo dot notation, array items by index: `c_enrollments.0.c_course`), a type label from the
 * definition where it names one (a Date, an ObjectId, a Reference) and from the JSON otherwise,
 * the text to copy, and for a reference the record it points to. Pure, so unit-tested.
 *
 * Trust boundary: the record is the service's answer; a reference's target is used only when its
 * `path` has the `/<collection>/<24 hex id>` form.
 */
import { SYSTEM_PROPERTIES, type PropertyDef } from '../../../../src-shared/schema/types';

export interface RecordReference {
  object: string;
  id: string;
}

export interface TreeNode {
  key: string;
  path: string;
  /** `String`, `Date`, `Number`, `Boolean`, `ObjectId`, `Reference`, `Document`, `String[3]`, `null`. */
  type: string;
  /** A leaf's value as text (strings as they are); absent for documents and arrays. */
  text?: string;
  /** What "copy value" copies: a string as it is, anything else as JSON. */
  copy: string;
  children?: TreeNode[];
  reference?: RecordReference;
}

const REFERENCE_PATH = /^\/[A-Za-z_][A-Za-z0-9_]*\/([0-9a-f]{24})$/i;

/** `{_id, object, path}` as the service writes a reference, with a usable target. */
export function referenceOf(value: unknown): RecordReference | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { _id, object, path } = value as Record<string, unknown>;
  if (typeof _id !== 'string' || typeof object !== 'string' || typeof path !== 'string') return undefined;
  const id = REFERENCE_PATH.exec(path)?.[1];
  return id === undefined || id.toLowerCase() !== _id.toLowerCase() ? undefined : { object, id: _id.toLowerCase() };
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;
const OBJECT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A reference the service expanded: the referenced record in its place (`_id`, `object` and its
 * members, no `path`). Only where the definition declares a Reference, so no other document that
 * happens to carry `_id` and `object` turns into a link.
 */
export function expandedReferenceOf(value: unknown): RecordReference | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { _id, object } = value as Record<string, unknown>;
  if (typeof _id !== 'string' || !OBJECT_ID.test(_id) || typeof object !== 'string' || !OBJECT_NAME.test(object)) {
    return undefined;
  }
  return { object, id: _id.toLowerCase() };
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'String';
  if (typeof value === 'number') return 'Number';
  if (typeof value === 'boolean') return 'Boolean';
  return 'Document';
}

/** The properties of an object by its name (`account`), to type the members of an expanded reference. */
export type PropertiesOf = (object: string) => readonly PropertyDef[] | undefined;

function nodeOf(
  key: string,
  path: string,
  value: unknown,
  prop: PropertyDef | undefined,
  item: boolean,
  propertiesOf: PropertiesOf,
): TreeNode {
  const copy = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  // The definition's type, where it speaks for this value (an array's items take its element type).
  const declared = prop && (item || prop.array !== true) ? prop.type : undefined;
  if (Array.isArray(value)) {
    const element = prop?.array === true ? prop.type : 'Array';
    return {
      key,
      path,
      type: `${element}[${value.length}]`,
      copy,
      children: value.map((v, i) => nodeOf(String(i), `${path}.${i}`, v, prop, true, propertiesOf)),
    };
  }
  const reference = referenceOf(value);
  if (reference) return { key, path, type: 'Reference', text: `${reference.object} ${reference.id}`, copy, reference };
  const expanded = declared === 'Reference' ? expandedReferenceOf(value) : undefined;
  if (expanded) {
    // An expanded reference (expand[], paths[] into it): the record it points to, with a link,
    // its members typed by the referenced object's definition.
    const members = withSystem(propertiesOf(expanded.object) ?? []);
    return {
      key,
      path,
      type: 'Reference',
      text: `${expanded.object} ${expanded.id}`,
      copy,
      reference: expanded,
      children: Object.entries(value as Record<string, unknown>).map(([k, v]) =>
        nodeOf(
          k,
          `${path}.${k}`,
          v,
          members.find((p) => p.name === k),
          false,
          propertiesOf,
        ),
      ),
    };
  }
  if (typeof value === 'object' && value !== null) {
    const props = prop?.type === 'Document' ? (prop.properties ?? []) : [];
    return {
      key,
      path,
      type: declared === 'Document' || declared === undefined ? 'Document' : declared,
      copy,
      children: Object.entries(value).map(([k, v]) =>
        nodeOf(
          k,
          `${path}.${k}`,
          v,
          props.find((p) => p.name === k),
          false,
          propertiesOf,
        ),
      ),
    };
  }
  const type = value === null ? 'null' : (declared ?? jsonType(value));
  return { key, path, type, text: value === null ? 'null' : String(value), copy };
}

/** The record's top-level values as tree nodes, typed by its definition's properties. */
export function recordTree(
  record: Record<string, unknown>,
  properties: readonly PropertyDef[],
  propertiesOf: PropertiesOf = () => undefined,
): TreeNode[] {
  const all = withSystem(properties);
  return Object.entries(record).map(([key, value]) =>
    nodeOf(
      key,
      key,
      value,
      all.find((p) => p.name === key),
      false,
      propertiesOf,
    ),
  );
}

function withSystem(properties: readonly PropertyDef[]): PropertyDef[] {
  return [...SYSTEM_PROPERTIES, ...properties];
}
