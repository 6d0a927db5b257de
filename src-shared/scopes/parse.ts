/**
 * Scope-chain parsing: text → typed chain, or a reason with the place it went wrong.
 *
 * Trust boundary: chains arrive from token-creation requests, role definitions and JWT claims,
 * all caller-controlled. Nothing here assumes the text is well formed, and nothing is accepted
 * that the spec's table (docs/scopes.md#scope-chains) does not describe.
 */
import { fault } from '../faults';
import type { ParsedChain } from './chain';
import { parseObjectChain } from './parse-object';
import { parseAdminChain, parseRunnableChain, parseScriptChain } from './parse-targets';
import { MAX_CHAINS_PER_TOKEN, MAX_CHAIN_LENGTH, segmentIndexAt, splitSegments } from './syntax';

const KIND_EXPECTATION = 'a chain starts with *, object, script, view, deployment or admin';

export function parseScopeChain(text: string): ParsedChain {
  // Typed as string, but chains come out of JSON: check rather than trust the type.
  if (typeof text !== 'string') return { ok: false, reason: 'a scope chain must be a string', position: 0, segment: 0 };
  if (text === '') return { ok: false, reason: 'the scope chain is empty', position: 0, segment: 0 };
  if (text.length > MAX_CHAIN_LENGTH) {
    return {
      ok: false,
      reason: `the scope chain is ${text.length} characters long; the limit is ${MAX_CHAIN_LENGTH}`,
      position: MAX_CHAIN_LENGTH,
      segment: segmentIndexAt(text, MAX_CHAIN_LENGTH),
    };
  }
  const whitespace = text.search(/\s/);
  if (whitespace !== -1) {
    return {
      ok: false,
      reason: 'whitespace is not allowed in a scope chain',
      position: whitespace,
      segment: segmentIndexAt(text, whitespace),
    };
  }

  const segments = splitSegments(text);
  const [head, next] = segments;
  // split() always yields at least one segment; the guard satisfies noUncheckedIndexedAccess.
  if (!head) return { ok: false, reason: 'the scope chain is empty', position: 0, segment: 0 };

  switch (head.text) {
    case '*':
      if (next) {
        return {
          ok: false,
          reason: '"*" grants everything and must stand alone',
          position: next.offset,
          segment: 1,
        };
      }
      return { ok: true, chain: { kind: 'all', source: text } };
    case 'object':
      return parseObjectChain(text, segments);
    case 'script':
      return parseScriptChain(text, segments);
    case 'view':
    case 'deployment':
      return parseRunnableChain(head.text, text, segments);
    case 'admin':
      return parseAdminChain(text, segments);
    case '':
      return { ok: false, reason: `the chain starts with "."; ${KIND_EXPECTATION}`, position: 0, segment: 0 };
    default:
      return {
        ok: false,
        reason: `unknown scope kind "${head.text}"; ${KIND_EXPECTATION}`,
        position: 0,
        segment: 0,
      };
  }
}

export function isValidScopeChain(text: string): boolean {
  return parseScopeChain(text).ok;
}

/**
 * Checks the `scope` list of a token-creation request and returns it unchanged.
 * Throws `invalidArgument.authScope` (docs/scopes.md) for the first problem; `path` names the
 * entry (`scope[2]`) and `reason` quotes the chain, says what is wrong and where.
 * An empty list is valid: such a token is allowed nothing (unless its roles carry scopes).
 */
export function validateScopes(list: unknown): string[] {
  if (!Array.isArray(list)) {
    throw fault('invalidArgument', 'authScope', {
      reason: 'scope must be an array of scope chains',
      path: 'scope',
    });
  }
  if (list.length > MAX_CHAINS_PER_TOKEN) {
    throw fault('invalidArgument', 'authScope', {
      reason: `scope has ${list.length} chains; the limit is ${MAX_CHAINS_PER_TOKEN}`,
      path: 'scope',
    });
  }
  list.forEach((entry: unknown, index) => {
    const path = `scope[${index}]`;
    if (typeof entry !== 'string') {
      throw fault('invalidArgument', 'authScope', { reason: `${path} must be a string`, path });
    }
    const parsed = parseScopeChain(entry);
    if (!parsed.ok) {
      throw fault('invalidArgument', 'authScope', {
        reason: `${path} "${entry}" is not a valid scope chain: ${parsed.reason} (at character ${parsed.position + 1})`,
        path,
      });
    }
  });
  return [...(list as string[])];
}
