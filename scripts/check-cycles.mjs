// Fails when source files import each other in a circle (file level), when two folders of the
// service import each other (folder level: src-main/service/<folder>), when a folder imports one
// that scripts/folder-graph.mjs does not allow it (or an allowed import is no longer used), and
// when docs/ARCHITECTURE.md's folder table is not the one folder-graph.mjs renders. Written on the
// TypeScript API already in the tree because madge's peer range stops at TypeScript 5.
// Usage: node scripts/check-cycles.mjs [--folders]   (--folders also prints the folder graph)
import ts from 'typescript';
import { readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { TEST_FOLDERS, docIsCurrent, graphProblems } from './folder-graph.mjs';

const ROOTS = ['src-main', 'src-shared', 'src-renderer'];

// Known cycles being removed on another branch (issue #12 §1, renderer side). The integrator
// deletes this list once that branch is merged; a cycle not listed here fails the check.
const root = process.cwd();
const files = ROOTS.flatMap((r) => walk(join(root, r)));
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return walk(p);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: 1 };
const host = ts.createCompilerHost(options);
const rel = (p) => relative(root, p).split(sep).join('/');
const graph = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file), true, true);
  const deps = new Set();
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const resolved = ts.resolveModuleName(fileName, file, options, host).resolvedModule;
    if (resolved && !resolved.isExternalLibraryImport) deps.add(rel(resolved.resolvedFileName));
  }
  graph.set(
    rel(file),
    [...deps].filter((d) => !d.endsWith('.d.ts')),
  );
}

/** Tarjan's strongly connected components: every component of more than one node is a cycle. */
function cycles(g) {
  let index = 0;
  const idx = new Map(),
    low = new Map(),
    stack = [],
    on = new Set(),
    out = [];
  const visit = (v) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const scc = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (g.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}

// Folder level: src-main/service/<folder>/… (files directly in service/ count as the folder '.').
const folderOf = (f) => {
  const m = /^src-main\/service\/([^/]+)\//.exec(f);
  return m ? m[1] : f.startsWith('src-main/service/') ? '.' : null;
};
const folders = new Map();
for (const [f, deps] of graph) {
  const a = folderOf(f);
  if (!a || a === '.' || f.endsWith('.test.ts') || TEST_FOLDERS.includes(a)) continue;
  if (!folders.has(a)) folders.set(a, new Map());
  for (const d of deps) {
    const b = folderOf(d);
    if (!b || b === a || b === '.' || TEST_FOLDERS.includes(b)) continue;
    const edges = folders.get(a);
    edges.set(b, [...(edges.get(b) ?? []), `${f} → ${d}`]);
  }
}
if (process.argv.includes('--folders')) {
  for (const [a, edges] of [...folders].sort())
    console.log(`${a} → ${[...edges.keys()].sort().join(', ') || '(nothing)'}`);
}
const folderGraph = new Map([...folders].map(([a, e]) => [a, [...e.keys()]]));

let failed = false;
for (const scc of cycles(graph)) {
  failed = true;
  console.error(`import cycle between files:\n  ${scc.join('\n  ')}`);
}
for (const scc of cycles(folderGraph)) {
  failed = true;
  console.error(`import cycle between service folders ${scc.join(', ')}:`);
  for (const a of scc) for (const b of scc) for (const edge of folders.get(a)?.get(b) ?? []) console.error(`  ${edge}`);
}
for (const problem of graphProblems(folders)) {
  failed = true;
  console.error(problem);
}
if (!docIsCurrent()) {
  failed = true;
  console.error('docs/ARCHITECTURE.md: the folder table is stale; run node scripts/folder-graph.mjs --write');
}
if (failed) process.exit(1);
console.log(`No import cycles in ${ROOTS.join(', ')} (${graph.size} files).`);
