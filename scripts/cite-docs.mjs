#!/usr/bin/env node
/**
 * Citations of the spec files the project started from (`decisions.md §4`, `original-clients.md
 * §F`, `service-interface.md "Scoping"`, `../shared/spec/…`) point outside the repository: a clone
 * cannot read them. Each cited section is now explained in docs/; SECTIONS below says where.
 *
 *   node scripts/cite-docs.mjs                  lists every remaining citation; exits 1 if any
 *   node scripts/cite-docs.mjs --write [PATH…]  rewrites them in place (default: the whole tree),
 *                                               printing each change for review
 *
 * Rewritten are only: comments in code (found by TypeScript's own scanner, so a `//` inside a
 * string or a regex is never taken for one), test titles and labels (string literals in
 * `*.test.ts` files and under `e2e/`), `$comment` values in JSON, and Markdown prose outside code
 * fences. Anything else is listed for a person to edit. In code a citation becomes
 * `docs/<file>.md` or `docs/<file>.md#<heading>`; in Markdown a relative link.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { headingSlugs } from './check-doc-links.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SELF = 'scripts/cite-docs.mjs';

/** Where each cited section is explained now: the docs file and, where it holds more, the heading. */
export const SECTIONS = {
  'decisions §1': ['docs/API.md', 'Addressing and envelopes'],
  'decisions §2': ['docs/faults.md'],
  'decisions §3': ['docs/orgs-and-apps.md', 'Applications'],
  'decisions §4': ['docs/signing.md'],
  'decisions §5': ['docs/sessions.md'],
  'decisions §6': ['docs/tokens.md'],
  'decisions §7': ['docs/scopes.md'],
  'decisions §8': ['docs/query-semantics.md'],
  'decisions §9': ['docs/orgs-and-apps.md'],
  'decisions §10': ['docs/scripting.md', 'Scripts written for the original (issue 40)'],
  'decisions §11': ['docs/SPEED.md'],
  decisions: ['docs/API.md'],
  'original-clients §A': ['docs/driver.md'],
  'original-clients §B': ['docs/scripting.md'],
  'original-clients §C': ['docs/scripting.md', 'Script routes'],
  'original-clients §D': ['docs/views.md'],
  'original-clients §E': ['docs/configuration.md'],
  'original-clients §F': ['docs/compatibility.md', 'PATCH and PUT'],
  'original-clients §G': ['docs/compatibility.md', 'Requests, cookies and fault codes'],
  'original-clients §H': ['docs/scripting.md', 'Decorator registrations'],
  'original-clients §I': ['docs/compatibility.md', 'Not yet'],
  'original-clients': ['docs/compatibility.md'],
  'service-interface': ['docs/API.md'],
  'service-interface Scoping': ['docs/scopes.md', 'Scope chains'],
  'service-interface JWT claims': ['docs/tokens.md', 'Claims'],
  'service-interface Token rules': ['docs/tokens.md'],
  'service-interface Signed request headers': ['docs/signing.md', 'Headers'],
  'service-interface Account': ['docs/compatibility.md', 'Records and routes as the original shapes them'],
  'service-interface Other objects seen': ['docs/compatibility.md', 'Records and routes as the original shapes them'],
  'service-interface Paging': ['docs/query-semantics.md', 'Paging'],
  'service-interface Query arguments': ['docs/query-semantics.md'],
  'service-interface All list endpoints': ['docs/query-semantics.md'],
  'service-interface Endpoints': ['docs/API.md'],
  'service-interface Errors': ['docs/faults.md'],
};

/** A citation starts with a spec file's name, spelled as the tree spells it. */
const DOC =
  /(?:\.\.\/shared\/spec\/)?(decisions|original-clients|service-interface)(?:\.md\b|(?=\s?§)|(?=\s+Endpoints\b))/g;
const FIRST_SECTION = /\s*§\s?(\d{1,2}|[A-I])\b/y;
const MORE_SECTIONS = /(\s*(?:, and|,|and|\/)\s*)§\s?(\d{1,2}|[A-I])\b/y;
const CLOSED_HEADING = /,?\s*"([^"\n]+)"(?:\s*(?:item\s*)?\d+(?:\s*and\s*\d+)?)?/y;
const NAMED_PART = /,?\s*(Account|Paging|Endpoints)\b/y;
const OPEN_HEADING = /,?\s*"([^"\n]+)/y;

function sticky(pattern, text, at) {
  pattern.lastIndex = at;
  return pattern.exec(text);
}

/** The SECTIONS key for a service-interface heading, by its first words; undefined if unknown. */
function interfaceKey(heading) {
  const key = Object.keys(SECTIONS).find(
    (k) => k.startsWith('service-interface ') && heading.startsWith(k.slice('service-interface '.length)),
  );
  return key;
}

/** Every citation in `text`: where it is, and the targets it stands for (with separators). */
export function findCitations(text) {
  const found = [];
  // matchAll starts where the shared regex's lastIndex was left (a DOC.test elsewhere): reset it.
  DOC.lastIndex = 0;
  for (const m of text.matchAll(DOC)) {
    const doc = m[1];
    let end = m.index + m[0].length;
    const parts = [];
    const first = sticky(FIRST_SECTION, text, end);
    if (first) {
      parts.push({ key: `${doc} §${first[1]}` });
      end += first[0].length;
      for (let more = sticky(MORE_SECTIONS, text, end); more; more = sticky(MORE_SECTIONS, text, end)) {
        parts.push({ separator: more[1], key: `${doc} §${more[2]}` });
        end += more[0].length;
      }
    } else if (doc === 'service-interface') {
      const closed = sticky(CLOSED_HEADING, text, end);
      const named = closed ? null : sticky(NAMED_PART, text, end);
      const open = closed || named ? null : sticky(OPEN_HEADING, text, end);
      const closedKey = closed && interfaceKey(closed[1]);
      if (closedKey) {
        parts.push({ key: closedKey });
        end += closed[0].length;
      } else if (named) {
        parts.push({ key: `service-interface ${named[1]}` });
        end += named[0].length;
      } else {
        // An unclosed quote (a heading that runs on to the next comment line) or none: the
        // heading picks the target and stays in the text; "email" near it means the Account table.
        const heading = (open && interfaceKey(open[1])) || (closed && interfaceKey(closed[1]));
        const near = text.slice(end, end + 60);
        parts.push({ key: heading ?? (/\bemail\b/.test(near) ? 'service-interface Account' : doc) });
      }
    } else {
      parts.push({ key: doc });
    }
    found.push({ start: m.index, end, text: text.slice(m.index, end), parts });
  }
  return found;
}

/** `docs/x.md` or `docs/x.md#heading` (code), or a Markdown link relative to `page`. */
function render(parts, page) {
  const seen = new Set();
  return parts
    .map(({ key, separator }) => {
      const [file, heading] = SECTIONS[key];
      const anchor = heading === undefined ? '' : `#${[...headingSlugs(`## ${heading}`)][0]}`;
      const target = `${file}${anchor}`;
      if (seen.has(target)) return '';
      seen.add(target);
      let out;
      if (page === undefined) out = target;
      else if (file === page) out = heading === undefined ? 'this page' : `["${heading}"](${anchor})`;
      else {
        const rel = relative(dirname(page), file);
        out = `[${heading === undefined ? rel : `${rel}, "${heading}"`}](${rel}${anchor})`;
      }
      return (separator ?? '') + out;
    })
    .join('');
}

/** `text` with the citations inside [from, to) rewritten. */
function rewriteRange(text, from, to, page) {
  const segment = text.slice(from, to);
  let out = '';
  let at = 0;
  for (const c of findCitations(segment)) {
    out += segment.slice(at, c.start) + render(c.parts, page);
    at = c.end;
  }
  return text.slice(0, from) + out + segment.slice(at) + text.slice(to);
}

/** The ranges of a code file where citations may be rewritten, and what each range is. */
function codeRanges(file, text) {
  const kind = file.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const isTest = /\.test\.tsx?$/.test(file) || file.startsWith('e2e/');
  const ranges = new Map();
  const visit = (node) => {
    const children = node.getChildren(source);
    if (children.length === 0) {
      for (const r of [
        ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
        ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
      ])
        ranges.set(r.pos, { from: r.pos, to: r.end, what: 'comment' });
      const literal =
        ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node);
      if (literal && isTest)
        ranges.set(node.getStart(source), { from: node.getStart(source), to: node.getEnd(), what: 'test string' });
      else if (literal)
        ranges.set(node.getStart(source), { from: node.getStart(source), to: node.getEnd(), what: 'code' });
    }
    children.forEach(visit);
  };
  visit(source);
  return [...ranges.values()].sort((a, b) => b.from - a.from);
}

/** Markdown prose (outside fences) as ranges; JSON `$comment` values; for code, codeRanges. */
function rangesOf(file, text) {
  if (file.endsWith('.md')) {
    const ranges = [];
    let fence = null;
    let offset = 0;
    for (const line of text.split('\n')) {
      const opener = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence === null && opener) fence = opener[1];
      else if (fence !== null && line.trim().startsWith(fence)) fence = null;
      else if (fence === null) ranges.push({ from: offset, to: offset + line.length, what: 'markdown' });
      offset += line.length + 1;
    }
    return ranges.reverse();
  }
  if (file.endsWith('.json')) {
    return [...text.matchAll(/"\$comment"\s*:\s*"((?:[^"\\]|\\.)*)"/g)]
      .map((m) => ({ from: m.index + m[0].length - m[1].length - 1, to: m.index + m[0].length - 1, what: 'comment' }))
      .reverse();
  }
  return codeRanges(file, text);
}

function treeFiles() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out
    .split('\0')
    .filter((f) => /\.(ts|tsx|mts|cts|mjs|cjs|js|md|json)$/.test(f) && f !== SELF && f !== 'package-lock.json')
    .filter((f) => existsSync(join(ROOT, f)));
}

/** Mapping targets that no longer exist (a renamed heading, a moved file). */
function staleSections() {
  return Object.entries(SECTIONS).flatMap(([key, [file, heading]]) => {
    if (!existsSync(join(ROOT, file))) return [`${key} → ${file}: no such file`];
    if (heading === undefined) return [];
    const slug = [...headingSlugs(`## ${heading}`)][0];
    return headingSlugs(readFileSync(join(ROOT, file), 'utf8')).has(slug)
      ? []
      : [`${key} → ${file}#${slug}: no such heading`];
  });
}

function lineOf(text, index) {
  return text.slice(0, index).split('\n').length;
}

function main(argv) {
  const write = argv.includes('--write');
  const wanted = argv.filter((a) => a !== '--write').map((p) => relative(ROOT, resolve(p)));
  const inScope = (f) =>
    wanted.length === 0 ||
    wanted.some(
      (w) => f === w || (existsSync(join(ROOT, w)) && statSync(join(ROOT, w)).isDirectory() && f.startsWith(`${w}/`)),
    );
  const stale = staleSections();
  if (stale.length > 0) {
    console.error(`SECTIONS names targets that do not exist:\n${stale.join('\n')}`);
    process.exit(2);
  }
  const remaining = [];
  let changed = 0;
  for (const file of treeFiles().filter(inScope)) {
    let text = readFileSync(join(ROOT, file), 'utf8');
    DOC.lastIndex = 0;
    if (!DOC.test(text)) continue;
    const page = file.endsWith('.md') ? file : undefined;
    for (const range of rangesOf(file, text)) {
      const citations = findCitations(text.slice(range.from, range.to));
      if (citations.length === 0) continue;
      const rewritable = range.what !== 'code';
      for (const c of citations) {
        remaining.push({ file, line: lineOf(text, range.from + c.start), what: range.what, text: c.text, rewritable });
      }
      if (write && rewritable) {
        const before = text.slice(range.from, range.to);
        text = rewriteRange(text, range.from, range.to, page);
        const after = rewriteRange(before, 0, before.length, page);
        console.log(`${file}:${lineOf(text, range.from)}\n  - ${before.trim()}\n  + ${after.trim()}`);
        changed++;
      }
    }
    if (write) writeFileSync(join(ROOT, file), text);
  }
  if (write) {
    const left = remaining.filter((r) => !r.rewritable);
    console.log(`\ncite-docs: ${changed} range(s) rewritten; ${left.length} citation(s) in code left to edit by hand.`);
    for (const r of left) console.log(`${r.file}:${r.line}: [${r.what}] ${r.text}`);
    return;
  }
  for (const r of remaining) console.log(`${r.file}:${r.line}: [${r.what}] ${r.text}`);
  if (remaining.length > 0) {
    const auto = remaining.filter((r) => r.rewritable).length;
    console.error(
      `\ncite-docs: ${remaining.length} citation(s) of files outside the repository; ${auto} rewritable with --write, ${remaining.length - auto} to edit by hand.`,
    );
    process.exit(1);
  }
  console.log('cite-docs: no citation points outside the repository.');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
