/**
 * The chains that name something to run or administer: script, view, deployment, admin.
 *
 * As with objects, a chain may stop after any segment and the omitted rest means "all" (the spec
 * lists a bare `script`, and calls the view and deployment identifiers optional); bare `view`,
 * `deployment` and `admin` follow the same rule so there is only one rule to learn.
 */
import type {
  AdminChain,
  ChainFailure,
  DeploymentChain,
  ParsedChain,
  ScriptChain,
  TargetIdentifier,
  ViewChain,
} from './chain';
import { emptySegmentReason, failAt, readIdentifier, type Segment } from './syntax';

const IDENTIFIER_EXPECTATION = '*, a 24-character hex id or a code name (letters, digits, _ and -)';

/**
 * `script[.execute[.<* | route | runner>[.<identifier>]]]` and `script.*`. The spec's row reads as a
 * list that narrows: script, script.execute, script.execute.*, then route or runner in place of the
 * `*`, and "an identifier limits use to one route", so only `route` takes one. docs/compatibility.md
 * §C names `script.*` among the prefixes covering a route: it grants what a bare `script` grants.
 */
export function parseScriptChain(source: string, segments: Segment[]): ParsedChain {
  const [, actionSegment, targetSegment, identifierSegment, extra] = segments;
  const count = segments.length;
  const chain: ScriptChain = { kind: 'script', source, action: null, target: null, identifier: null };
  if (!actionSegment) return { ok: true, chain };

  const action = actionSegment.text;
  if (action === '')
    return failAt(actionSegment, emptySegmentReason(actionSegment, count, 'the script action (execute)'));
  if (action === 'route' || action === 'runner') {
    return failAt(actionSegment, `"${action}" goes after execute: write script.execute.${action}`);
  }
  if (action === '*') {
    chain.action = '*';
    if (targetSegment) return failAt(targetSegment, 'script.* already covers every script; nothing may follow the "*"');
    return { ok: true, chain };
  }
  if (action !== 'execute') return failAt(actionSegment, `unknown script action "${action}"; expected execute or *`);
  chain.action = 'execute';
  if (!targetSegment) return { ok: true, chain };

  const target = targetSegment.text;
  if (target === '')
    return failAt(targetSegment, emptySegmentReason(targetSegment, count, 'the script target (*, route or runner)'));
  if (target !== '*' && target !== 'route' && target !== 'runner') {
    return failAt(targetSegment, `unknown script target "${target}"; expected *, route or runner`);
  }
  chain.target = target;
  if (!identifierSegment) return { ok: true, chain };

  if (target === '*') {
    return failAt(identifierSegment, 'script.execute.* already covers every script; nothing may follow the "*"');
  }
  if (target === 'runner') {
    return failAt(
      identifierSegment,
      'the script runner is a single system route; script.execute.runner takes no identifier',
    );
  }
  const identifier = readTargetIdentifier(identifierSegment, count, 'the route identifier');
  if ('ok' in identifier) return identifier;
  chain.identifier = identifier;
  if (extra) return failAt(extra, 'nothing may follow the route identifier');
  return { ok: true, chain };
}

/** `view.<* | execute>.<code | id>` and `deployment.<* | execute>.<code | id>` share one shape. */
export function parseRunnableChain(kind: 'view' | 'deployment', source: string, segments: Segment[]): ParsedChain {
  const [, actionSegment, identifierSegment, extra] = segments;
  const count = segments.length;
  const chain: ViewChain | DeploymentChain = { kind, source, action: null, identifier: null };
  if (!actionSegment) return { ok: true, chain };

  const action = actionSegment.text;
  if (action === '')
    return failAt(actionSegment, emptySegmentReason(actionSegment, count, `the ${kind} action (* or execute)`));
  if (kind === 'deployment' && ['create', 'read', 'update', 'delete'].includes(action)) {
    // The spec's invalid example: deployments are objects, so their CRUD is an object scope.
    return failAt(
      actionSegment,
      `deployment.${action} is not a scope: deployments are objects, so use object.${action}.deployment instead`,
    );
  }
  if (action !== '*' && action !== 'execute') {
    return failAt(actionSegment, `unknown ${kind} action "${action}"; expected * or execute`);
  }
  chain.action = action;
  if (!identifierSegment) return { ok: true, chain };

  const identifier = readTargetIdentifier(identifierSegment, count, `the ${kind} identifier`);
  if ('ok' in identifier) return identifier;
  chain.identifier = identifier;
  if (extra) return failAt(extra, `nothing may follow the ${kind} identifier`);
  return { ok: true, chain };
}

/** `admin.<* | read | update>` */
export function parseAdminChain(source: string, segments: Segment[]): ParsedChain {
  const [, actionSegment, extra] = segments;
  const chain: AdminChain = { kind: 'admin', source, action: null };
  if (!actionSegment) return { ok: true, chain };

  const action = actionSegment.text;
  if (action === '')
    return failAt(
      actionSegment,
      emptySegmentReason(actionSegment, segments.length, 'the admin action (*, read or update)'),
    );
  if (action !== '*' && action !== 'read' && action !== 'update') {
    return failAt(actionSegment, `unknown admin action "${action}"; expected *, read or update`);
  }
  chain.action = action;
  if (extra) return failAt(extra, `nothing may follow admin.${action}`);
  return { ok: true, chain };
}

function readTargetIdentifier(segment: Segment, count: number, what: string): TargetIdentifier | ChainFailure {
  if (segment.text === '') return failAt(segment, emptySegmentReason(segment, count, what));
  const identifier = readIdentifier(segment.text, true);
  if (identifier === null) {
    return failAt(segment, `"${segment.text}" is not a valid identifier; expected ${IDENTIFIER_EXPECTATION}`);
  }
  return identifier;
}
