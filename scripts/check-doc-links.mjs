#!/usr/bin/env node
/**
 * Fails when README.md or a file under docs/ points at something that does not exist:
 *   - a relative Markdown link `[text](path#anchor)`: the file must exist, relative to the page,
 *     and an anchor into a Markdown file must name one of its headings (GitHub's slugs);
 *   - a link to `#anchor` on the same page;
 *   - a file path in inline code (`src-main/service/server.ts`, `routes/objects.ts`,
 *     `plans.test.ts`, `src-main/gateway/`): it must exist in the repository. A path that starts
 *     with a top-level folder is taken from the repository's root; a shorter one (as the docs write
 *     paths inside the folder they describe) must be the end of some file's path.
 * Only text outside fenced code blocks is read. Part of `npm run lint`.
 *
 * Usage: node scripts/check-doc-links.mjs [file.md ...]   (default: README.md and docs/**.md)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Folders a path in inline code may start with to be read from the repository's root. */
const TOP_LEVEL = new Set(['src-main', 'src-shared', 'src-renderer', 'e2e', 'scripts', 'docs', '.ci']);
/** Extensions that mark inline code as a file path (`service/scp` is a claim, not a file). */
const FILE_EXTENSIONS = /\.(ts|tsx|mts|mjs|cjs|js|json|md|css|html|yml|yaml)$/;
/** Inline code that names files outside the repository, as examples or build output. */
const NOT_REPOSITORY_PATHS = [
  /^(dist|node_modules|\.electron-native|test-results|playwright-report|userData|backups)\//,
  /^(m|api\.d|openapi|connections)\.(json|ts)$/,
  // errCodes: `invalidArgument.json` is a fault, not a file
  /^(service\.)?(invalidArgument|validation|unsupportedOperation|accessDenied|expired|notFound|exists|conflict|tooLarge|throttled|timeout|error|notImplemented|success)\./,
];
/** A bare file name (no folder) is checked only for the project's own source and docs types. */
const BARE_NAME_EXTENSIONS = /\.(ts|tsx|mts|mjs|md)$/;

/** Every file of the working tree that git does not ignore (new, uncommitted files included). */
function repositoryFiles() {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    return out.split('\0').filter((f) => f !== '' && existsSync(join(ROOT, f)));
  } catch {
    return walk(ROOT).map((f) => relative(ROOT, f));
  }
}

function walk(dir, out = [], depth = 0) {
  if (depth > 20) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.git', '.electron-native'].includes(entry.name)) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out, depth + 1);
    else out.push(full);
  }
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to `-`, repeats numbered. */
export function headingSlugs(markdown) {
  const slugs = new Set();
  const seen = new Map();
  for (const { text } of outsideFences(markdown)) {
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (!match) continue;
    const title = match[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

/** The lines of a Markdown text outside fenced code blocks, with their 1-based numbers. */
function outsideFences(markdown) {
  const lines = [];
  let fence = null;
  markdown.split('\n').forEach((text, i) => {
    const opener = /^\s*(`{3,}|~{3,})/.exec(text);
    if (fence === null && opener) fence = opener[1];
    else if (fence !== null && text.trim().startsWith(fence)) fence = null;
    else if (fence === null) lines.push({ text, line: i + 1 });
  });
  return lines;
}

/** The problems of one Markdown file. */
export function checkFile(file, files, readText = (f) => readFileSync(f, 'utf8')) {
  const fileSet = new Set(files);
  const folders = new Set(
    files.flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  const exists = (path) => fileSet.has(path) || folders.has(path.replace(/\/$/, ''));
  const endsSomePath = (path) => {
    const wanted = path.replace(/\/$/, '');
    if (exists(wanted)) return true;
    const suffix = '/' + wanted;
    return files.some((f) => f.endsWith(suffix)) || [...folders].some((d) => d.endsWith(suffix));
  };
  const slugCache = new Map();
  const slugsOf = (path) => {
    if (!slugCache.has(path)) slugCache.set(path, headingSlugs(readText(join(ROOT, path))));
    return slugCache.get(path);
  };

  const problems = [];
  const here = relative(ROOT, resolve(ROOT, file));
  const text = readText(join(ROOT, here));
  for (const { text: line, line: number } of outsideFences(text)) {
    const report = (what) => problems.push(`${here}:${number}: ${what}`);
    // Inline code is read for paths; links are read with it removed (a `[x](y)` inside code is code).
    const codeSpans = [...line.matchAll(/(`+)([^`]+?)\1/g)].map((m) => m[2].trim());
    const prose = line.replace(/(`+)[^`]+?\1/g, '');
    for (const m of prose.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#', 2);
      const resolved = pathPart === '' ? here : normalize(join(dirname(here), decodeURIComponent(pathPart)));
      if (resolved.startsWith('..')) {
        report(`link leaves the repository: ${target}`);
        continue;
      }
      if (!exists(resolved)) {
        report(`link to a missing file: ${target}`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !slugsOf(resolved).has(anchor)) {
        report(`link to a missing heading: ${target}`);
      }
    }
    for (const code of codeSpans) {
      const path = code.replace(/^\.\//, '');
      if (!/^[\w.@-]+(\/[\w.@-]+)*\/?$/.test(path)) continue; // not a plain path (spaces, <…>, *, :)
      if (NOT_REPOSITORY_PATHS.some((pattern) => pattern.test(path))) continue;
      const top = path.split('/')[0];
      const isFolder = path.endsWith('/') && path.includes('/');
      if (!FILE_EXTENSIONS.test(path) && !isFolder && !TOP_LEVEL.has(top)) continue;
      if (!path.includes('/') && !BARE_NAME_EXTENSIONS.test(path)) continue;
      const found = TOP_LEVEL.has(top) ? exists(path) : endsSomePath(path);
      if (!found) report(`no such path in the repository: \`${code}\``);
    }
  }
  return problems;
}

function main(argv) {
  const files = repositoryFiles();
  const pages =
    argv.length > 0
      ? argv
      : ['README.md', ...files.filter((f) => f.startsWith('docs/') && f.endsWith('.md'))].filter((f) =>
          existsSync(join(ROOT, f)),
        );
  const problems = pages.flatMap((page) => {
    if (!existsSync(join(ROOT, page)) || !statSync(join(ROOT, page)).isFile()) return [`${page}: no such file`];
    return checkFile(page, files);
  });
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(
      `\n${problems.length} path(s) or link(s) in the docs point at nothing (scripts/check-doc-links.mjs).`,
    );
    process.exit(1);
  }
  console.log(`check-doc-links: ${pages.length} pages, every path and link exists.`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
