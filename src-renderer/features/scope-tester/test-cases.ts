/**
 * Saved scope test cases: chains (and role ids) plus request rows with the verdicts they should
 * get. Kept in localStorage per org, exported to and imported from a JSON file.
 *
 * Trust boundary: localStorage and imported files are untrusted. `parseTestCaseFile` keeps only
 * well-formed cases and rows (with limits), and chains stay text that the shared parser judges
 * when the case runs, like anything typed.
 */
import { emptyRow, isOperation, type TestRow, type Verdict } from './batch';

export interface TestCase {
  name: string;
  chains: string[];
  /** Role ids whose scopes are added to the chains. */
  roles: string[];
  rows: TestRow[];
  /** ISO time of the last save. */
  savedAt: string;
}

export interface TestCaseFile {
  format: 'scope-test-cases';
  version: 1;
  cases: TestCase[];
}

export const MAX_CASES = 200;
export const MAX_ROWS = 200;
const MAX_CHAINS = 100;
const MAX_TEXT = 512;
const ROLE_ID = /^[0-9a-f]{24}$/i;

export function storageKey(org: string): string {
  return `console.scopeTests.v1.${org}`;
}

/** Adds or replaces (by name) a case; the newest first. */
export function upsertCase(cases: readonly TestCase[], entry: TestCase): TestCase[] {
  return [entry, ...cases.filter((item) => item.name !== entry.name)].slice(0, MAX_CASES);
}

export function removeCase(cases: readonly TestCase[], name: string): TestCase[] {
  return cases.filter((item) => item.name !== name);
}

/** Imported cases win over stored ones of the same name. */
export function mergeCases(current: readonly TestCase[], imported: readonly TestCase[]): TestCase[] {
  let merged = [...current];
  for (const entry of [...imported].reverse()) merged = upsertCase(merged, entry);
  return merged;
}

export function serializeTestCases(cases: readonly TestCase[]): string {
  const file: TestCaseFile = { format: 'scope-test-cases', version: 1, cases: [...cases] };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Reads a test-case file; throws an Error in plain words when it is not one. */
export function parseTestCaseFile(text: string): TestCase[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('The file is not JSON.');
  }
  if (!isObject(value) || value.format !== 'scope-test-cases' || value.version !== 1 || !Array.isArray(value.cases)) {
    throw new Error(
      'The file is not a scope test-case file exported by this console (format scope-test-cases, version 1).',
    );
  }
  const cases = value.cases.map(readCase).filter((entry): entry is TestCase => entry !== null);
  if (cases.length === 0 && value.cases.length > 0)
    throw new Error('None of the test cases in the file is well formed.');
  return cases.slice(0, MAX_CASES);
}

function readCase(value: unknown): TestCase | null {
  if (!isObject(value)) return null;
  const { name, chains, roles, rows, savedAt } = value;
  if (typeof name !== 'string' || name.trim() === '' || name.length > 100) return null;
  if (!Array.isArray(chains) || chains.length > MAX_CHAINS) return null;
  if (!chains.every((chain) => typeof chain === 'string' && chain.length <= MAX_TEXT)) return null;
  const roleIds = Array.isArray(roles)
    ? roles.filter((id): id is string => typeof id === 'string' && ROLE_ID.test(id))
    : [];
  if (!Array.isArray(rows) || rows.length > MAX_ROWS) return null;
  const readRows = rows.map(readRow);
  if (readRows.some((row) => row === null)) return null;
  return {
    name: name.trim(),
    chains: chains as string[],
    roles: roleIds.slice(0, MAX_CHAINS),
    rows: readRows as TestRow[],
    savedAt: typeof savedAt === 'string' ? savedAt.slice(0, 40) : new Date(0).toISOString(),
  };
}

function readRow(value: unknown): TestRow | null {
  if (!isObject(value)) return null;
  const { operation, objectType, instanceId, propertyPath, expected } = value;
  if (!isOperation(operation)) return null;
  const text = (field: unknown) =>
    field === undefined ? '' : typeof field === 'string' && field.length <= MAX_TEXT ? field : null;
  const type = text(objectType);
  const id = text(instanceId);
  const path = text(propertyPath);
  if (type === null || type === '' || id === null || path === null) return null;
  const row: TestRow = { ...emptyRow(), operation, objectType: type, instanceId: id, propertyPath: path };
  if (expected === 'allowed' || expected === 'denied') row.expected = expected as Verdict;
  else if (expected !== undefined && expected !== null) return null;
  return row;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function loadCases(storage: Pick<Storage, 'getItem'> | undefined, org: string): TestCase[] {
  try {
    const text = storage?.getItem(storageKey(org));
    return text ? parseTestCaseFile(text) : [];
  } catch {
    return [];
  }
}

export function storeCases(
  storage: Pick<Storage, 'setItem'> | undefined,
  org: string,
  cases: readonly TestCase[],
): void {
  try {
    storage?.setItem(storageKey(org), serializeTestCases(cases));
  } catch {
    // Storage full or unavailable: the cases last for this page only.
  }
}
