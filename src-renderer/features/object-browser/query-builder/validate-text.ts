/**
 * Live validation of the JSON view with the SAME parser the service runs (src-shared/query), so
 * the console flags exactly what the service would refuse, at the spot it names.
 */
import { FaultError, type FaultBody } from '../../../../src-shared/faults';
import { JsonSyntaxError, parseJson, parseSortDocument, parseWhereDocument } from '../../../../src-shared/query';
import type { ObjectDef } from '../../../../src-shared/schema/types';
import { locateFaultPath, type TextRange } from './json-locate';

export interface TextProblem {
  message: string;
  errCode: string;
  /** The fault path (`where.$and[1].name.last.$regex`), or undefined for syntax errors. */
  path?: string;
  /** The character offset of a syntax error. */
  offset?: number;
  range: TextRange | null;
}

export type TextCheck = { ok: true; value: unknown } | { ok: false; problem: TextProblem };

/** Checks `where` text: blank is "no condition"; otherwise JSON syntax, then the query rules. */
export function checkWhereText(text: string, def: ObjectDef | undefined): TextCheck {
  return checkText(text, 'where', def, (document, d) => parseWhereDocument(document, d));
}

/** Checks `sort` text: blank is the default order; a JSON object of `path: 1 | -1`. */
export function checkSortText(text: string, def: ObjectDef | undefined): TextCheck {
  return checkText(text, 'sort', def, (document, d) => parseSortDocument(document, d));
}

function checkText(
  text: string,
  argument: string,
  def: ObjectDef | undefined,
  validate: (document: unknown, def: ObjectDef) => unknown,
): TextCheck {
  if (text.trim() === '') return { ok: true, value: undefined };
  let document: unknown;
  try {
    document = parseJson(text);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return {
      ok: false,
      problem: {
        message: error.message,
        errCode: 'service.invalidArgument.query',
        offset: error.offset,
        range: { start: error.offset, end: Math.min(error.offset + 1, text.length) },
      },
    };
  }
  if (def) {
    try {
      validate(document, def);
    } catch (error) {
      if (!(error instanceof FaultError)) throw error;
      return { ok: false, problem: problemFromFault(error.fault, text, argument) };
    }
  }
  // Plain objects again: the parser's null-prototype objects would surprise React state and tests.
  return { ok: true, value: JSON.parse(JSON.stringify(document)) as unknown };
}

export function problemFromFault(fault: FaultBody, text: string, argument: string): TextProblem {
  const problem: TextProblem = {
    message: fault.reason ?? fault.message,
    errCode: fault.errCode,
    range: fault.path ? locateFaultPath(text, fault.path, argument) : null,
  };
  if (fault.path) problem.path = fault.path;
  return problem;
}
