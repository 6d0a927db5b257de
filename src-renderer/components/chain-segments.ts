/**
 * A scope chain shown segment by segment: what each dot-separated part is and what it grants,
 * from the shared parser's structure (src-shared/scopes), or the parser's reason with the exact
 * character where the chain went wrong.
 */
import {
  chainSchemaProblem,
  parseScopeChain,
  type ScopeChain,
  type ScopeSchemaType,
  type TargetIdentifier,
} from '../../src-shared/scopes';

export interface ChainSegment {
  /** Text as written (a property path keeps its dots). */
  text: string;
  /** 0-based character offset in the chain. */
  offset: number;
  /** What the segment is: "kind", "operation", "object type", … */
  role: string;
  /** What it grants, in words. */
  meaning: string;
}

export type ChainView =
  | { ok: true; kind: ScopeChain['kind']; segments: ChainSegment[]; summary: string }
  | {
      ok: false;
      reason: string;
      /** 0-based character offset of the problem. */
      position: number;
      /** 0-based index of the segment with the problem. */
      segment: number;
      /** The chain split at `position` for highlighting; `mark` is at least one character (a space past the end). */
      before: string;
      mark: string;
      after: string;
    };

/**
 * A chain's parts, or where it goes wrong. With the org's object types (`types`), a chain that
 * parses but names a type or property the org lacks is wrong too — the service's own rule
 * (src-shared/scopes/schema-check.ts), so a valid mark means the chain can grant something.
 */
export function describeChain(text: string, types?: readonly ScopeSchemaType[]): ChainView {
  const parsed = parseScopeChain(text);
  if (parsed.ok && types) {
    const problem = chainSchemaProblem(text, types);
    if (problem !== undefined) {
      const segments = segmentsOf(parsed.chain, text);
      const role = problem.startsWith('there is no object type') ? 'object type' : 'property path';
      const index = Math.max(
        0,
        segments.findIndex((segment) => segment.role === role),
      );
      const at = segments[index] ?? { offset: 0, text };
      return {
        ok: false,
        reason: `can grant nothing: ${problem}`,
        position: at.offset,
        segment: index,
        before: text.slice(0, at.offset),
        mark: text.slice(at.offset, at.offset + at.text.length) || ' ',
        after: text.slice(at.offset + at.text.length),
      };
    }
  }
  if (!parsed.ok) {
    const position = Math.max(0, Math.min(parsed.position, text.length));
    const markEnd = segmentEnd(text, position);
    return {
      ok: false,
      reason: parsed.reason,
      position,
      segment: parsed.segment,
      before: text.slice(0, position),
      mark: markEnd > position ? text.slice(position, markEnd) : ' ',
      after: text.slice(markEnd),
    };
  }
  const chain = parsed.chain;
  return { ok: true, kind: chain.kind, segments: segmentsOf(chain, text), summary: summarize(chain) };
}

/** The end of the segment that holds `position` (the next dot or the end). */
function segmentEnd(text: string, position: number): number {
  if (position >= text.length) return position;
  const dot = text.indexOf('.', position + (text[position] === '.' ? 1 : 0));
  const end = dot === -1 ? text.length : dot;
  return Math.max(end, position + 1);
}

function rawSegments(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  let offset = 0;
  for (const part of text.split('.')) {
    out.push({ text: part, offset });
    offset += part.length + 1;
  }
  return out;
}

function segmentsOf(chain: ScopeChain, text: string): ChainSegment[] {
  const raw = rawSegments(text);
  const at = (index: number, role: string, meaning: string): ChainSegment[] => {
    const segment = raw[index];
    return segment ? [{ ...segment, role, meaning }] : [];
  };
  switch (chain.kind) {
    case 'all':
      return at(0, 'kind', 'everything the subject can do');
    case 'object': {
      const out = [
        ...at(0, 'kind', 'object operations'),
        ...at(1, 'operation', chain.operation ?? 'every operation (left empty)'),
        ...at(
          2,
          'object type',
          chain.subtype ? `${chain.objectType} of subtype ${chain.subtype}` : `${chain.objectType ?? ''} (any subtype)`,
        ),
        ...at(3, 'instance', instanceWords(chain.identifier)),
      ];
      const first = raw[4];
      if (first && chain.propertyPath !== null) {
        out.push({
          text: chain.propertyPath,
          offset: first.offset,
          role: 'property path',
          meaning: `only ${chain.propertyPath} (and what is inside it)`,
        });
      }
      return out;
    }
    case 'script':
      return [
        ...at(0, 'kind', 'scripts'),
        ...at(1, 'action', 'execute'),
        ...at(
          2,
          'target',
          chain.target === 'route' ? 'script routes' : chain.target === 'runner' ? 'the ad-hoc runner' : 'every script',
        ),
        ...at(3, 'identifier', identifierWords(chain.identifier, 'route')),
      ];
    case 'view':
    case 'deployment':
      return [
        ...at(0, 'kind', chain.kind === 'view' ? 'views' : 'deployments'),
        ...at(1, 'action', 'execute'),
        ...at(2, 'identifier', identifierWords(chain.identifier, chain.kind)),
      ];
    case 'admin':
      return [
        ...at(0, 'kind', 'administrative routes'),
        ...at(1, 'action', chain.action === 'read' ? 'read' : chain.action === 'update' ? 'update' : 'read and update'),
      ];
  }
}

function instanceWords(identifier: TargetIdentifier | null): string {
  if (identifier === null || identifier.kind === 'any') return 'every instance';
  return `only instance ${identifier.value}`;
}

function identifierWords(identifier: TargetIdentifier | null, what: string): string {
  if (identifier === null || identifier.kind === 'any') return `every ${what}`;
  return `only the ${what} ${identifier.value}`;
}

/** One sentence for the whole chain. */
export function summarize(chain: ScopeChain): string {
  switch (chain.kind) {
    case 'all':
      return 'Grants everything the subject can do.';
    case 'object': {
      const operation = chain.operation ?? 'every operation';
      if (chain.objectType === null) return `Grants ${operation} on every object type.`;
      const type = chain.subtype ? `${chain.objectType}#${chain.subtype}` : chain.objectType;
      const instance = chain.identifier?.kind === 'id' ? ` instance ${chain.identifier.value}` : ' (every instance)';
      const property = chain.propertyPath ? `, property ${chain.propertyPath} only` : '';
      return `Grants ${operation} on ${type}${instance}${property}.`;
    }
    case 'script':
      if (chain.target === 'runner') return 'Grants running the ad-hoc script runner.';
      if (chain.target === 'route') {
        return chain.identifier && chain.identifier.kind !== 'any'
          ? `Grants running the script route ${chain.identifier.value}.`
          : 'Grants running every script route.';
      }
      return 'Grants script execution (routes and the runner).';
    case 'view':
    case 'deployment':
      return chain.identifier && chain.identifier.kind !== 'any'
        ? `Grants executing the ${chain.kind} ${chain.identifier.value}.`
        : `Grants executing every ${chain.kind}.`;
    case 'admin':
      return `Grants administrative ${chain.action === 'read' || chain.action === 'update' ? chain.action : 'read and update'}.`;
  }
}

/** Splits a multi-line (or comma-separated) chain list; blank entries are dropped. */
export function splitChains(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
