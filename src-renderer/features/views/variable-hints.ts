/**
 * What each variable of a view wants, derived from where the view uses it: `{{last_regex}}` as the
 * value of a `$regex` wants `/^Sm/`, not `Sm`; one compared with a Date property wants an ISO date;
 * a bare one under `$in` wants a JSON array. The run form shows the hint and an example, so a
 * caller does not learn the shape from a fault (or, worse, from an empty page).
 *
 * The component text is read as the service reads it (views/template.ts on the service side):
 * `"{{name}}"` quoted is text, a bare `{{name}}` is parsed as JSON. Only the positions are read here.
 */
import { resolvePath, type ObjectDef } from '../../../src-shared/schema/types';

export type VariableKind =
  'regex' | 'spliced' | 'date' | 'number' | 'boolean' | 'id' | 'array' | 'document' | 'sort' | 'choice' | 'text';

export interface VariableHint {
  kind: VariableKind;
  /** What to type, in words. */
  hint: string;
  /** A value of the right shape (shown as the box's placeholder). */
  example: string;
  /** The values a String property with an enum allows. */
  options?: string[];
}

interface Use {
  name: string;
  component: string;
  /** The property path the value belongs to (`name.last`), '' at the root. */
  path: string;
  /** The operator the value is the operand of (`$regex`), if any. */
  operator?: string;
  bare: boolean;
  /** The string around the variable when it is spliced into a longer one (`/^{{x}}/i`). */
  around?: string;
}

const VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}$/;
const BARE = '\u0000var:';

/** Quotes bare `{{name}}` (outside JSON strings) so the text parses, as the service does. */
function markBare(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    const bare =
      c === '{' && text[i + 1] === '{' ? /^\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/.exec(text.slice(i)) : null;
    if (bare) {
      out += JSON.stringify(BARE + bare[1]!);
      i += bare[0].length - 1;
    } else out += c;
  }
  return out;
}

/** Every use of a variable in a view's components; a component that does not parse gives none. */
export function variableUses(query: readonly { name: string; value: string }[]): Use[] {
  const uses: Use[] = [];
  for (const component of query) {
    let tree: unknown;
    try {
      tree = JSON.parse(markBare(component.value));
    } catch {
      continue;
    }
    walk(tree, component.name, '', undefined, uses);
  }
  return uses;
}

function walk(value: unknown, component: string, path: string, operator: string | undefined, uses: Use[]): void {
  const at = { component, path, ...(operator ? { operator } : {}) };
  if (typeof value === 'string') {
    if (value.startsWith(BARE)) uses.push({ ...at, name: value.slice(BARE.length), bare: true });
    else if (WHOLE.test(value)) uses.push({ ...at, name: WHOLE.exec(value)![1]!, bare: false });
    else for (const m of value.matchAll(VARIABLE)) uses.push({ ...at, name: m[1]!, bare: false, around: value });
  } else if (Array.isArray(value)) {
    for (const item of value)
      walk(item, component, path, operator === '$in' || operator === '$nin' ? operator : undefined, uses);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key.startsWith('$')) walk(inner, component, path, key, uses);
      else walk(inner, component, path === '' ? key : `${path}.${key}`, undefined, uses);
    }
  }
}

const hint = (kind: VariableKind, text: string, example: string, options?: string[]): VariableHint =>
  options ? { kind, hint: text, example, options } : { kind, hint: text, example };

/** The hint for one use; `def` is the view's source object (undefined while it loads). */
export function hintOf(use: Use, def: ObjectDef | undefined): VariableHint {
  if (use.around !== undefined) {
    const shape = use.around.replace(VARIABLE, '…');
    return hint('spliced', `Plain text, put into ${shape} where the variable stands (no quotes or slashes).`, 'Sm');
  }
  if (use.path === '' && use.operator === undefined) {
    return use.component === 'sort'
      ? hint('document', 'A JSON sort document.', '{"created":-1}')
      : hint('document', `A JSON document: the whole ${use.component}.`, '{"c_status":"open"}');
  }
  if (use.component === 'sort') return hint('sort', '1 (ascending) or -1 (descending).', '-1');
  if (use.operator === '$regex') {
    return hint(
      'regex',
      'A regular expression between slashes, flags after: /^Sm/ matches values starting with Sm (plain Sm is refused); /^sm/i ignores case.',
      '/^Sm/',
    );
  }
  if (use.operator === '$exists') return hint('boolean', 'true (the property is set) or false.', 'true');
  if (use.operator === '$size') return hint('number', 'A whole number: the array’s length.', '2');
  if ((use.operator === '$in' || use.operator === '$nin' || use.operator === '$all') && use.bare) {
    return hint('array', 'A JSON array of values.', '["a","b"]');
  }
  const property = def ? resolvePath(def, use.path)?.def : undefined;
  switch (property?.type) {
    case 'Date':
      return hint('date', 'A date and time in ISO 8601, UTC.', '2024-05-01T00:00:00.000Z');
    case 'Number':
    case 'Integer':
      return use.bare
        ? hint('number', `A number (${use.path} is a ${property.type}).`, '42')
        : hint(
            'number',
            `A number — but quoted in the view, so sent as text, which a ${property.type} never equals.`,
            '42',
          );
    case 'Boolean':
      return hint('boolean', 'true or false.', 'true');
    case 'ObjectId':
    case 'Reference':
      return hint('id', 'An _id: 24 hexadecimal characters.', '0123456789abcdef01234567');
    case 'String':
      if (Array.isArray(property.enum) && property.enum.length > 0) {
        const options = property.enum.map(String);
        return hint('choice', `One of: ${options.join(', ')}.`, options[0]!, options);
      }
      return hint('text', 'Text, compared exactly (case matters).', '');
    default:
      return hint('text', 'Text.', '');
  }
}

/** One hint per variable: from its first use (a variable used twice gets the same value twice). */
export function variableHints(
  query: readonly { name: string; value: string }[],
  def: ObjectDef | undefined,
): Map<string, VariableHint> {
  const out = new Map<string, VariableHint>();
  for (const use of variableUses(query)) if (!out.has(use.name)) out.set(use.name, hintOf(use, def));
  return out;
}
