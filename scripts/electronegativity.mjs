// Runs Electronegativity over the built Electron shell (dist/main/shell/main.js) and
// fails when a finding of severity MEDIUM or above is not justified in electronegativity-allowlist.json.
//
//   npm run build:main && node scripts/electronegativity.mjs
//
// An allowlist entry names the check `id`, the `file` it is reported in ("N/A" for global checks),
// optionally `match` — text that must appear on the reported line of the bundle, so an entry
// justifies that one construct and not every future one of its kind — and a `reason`. Entries that
// justify nothing any more fail the run too, so the list cannot rot.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const input = join(root, 'dist', 'main', 'shell');
const require = createRequire(join(root, 'package.json'));
const SEVERITY_FLOOR = 2; // MEDIUM (INFORMATIONAL 0, LOW 1, MEDIUM 2, HIGH 3)

if (!existsSync(join(input, 'main.js'))) {
  console.error('electronegativity: dist/main/shell is not built; run `npm run build:main` first.');
  process.exit(2);
}

const allowlist = JSON.parse(readFileSync(join(root, 'electronegativity-allowlist.json'), 'utf8'));
for (const entry of allowlist) {
  if (!entry.id || !entry.file || typeof entry.reason !== 'string' || entry.reason.trim().length < 20) {
    console.error(`electronegativity: allowlist entry without id, file or a real reason: ${JSON.stringify(entry)}`);
    process.exit(2);
  }
}

const mod = require('@doyensec/electronegativity');
const run = mod.default ?? mod;
const result = await run({
  input,
  isRelative: true,
  // The loader cannot read the version from a bundle and would assume Electron 0.1 (insecure defaults).
  electronVersionOverride: require('electron/package.json').version,
  // This check downloads Electron's release list: not available offline, and the version is pinned
  // by package-lock.json (upgrades are reviewed there).
  excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
  parserPlugins: ['optionalChaining'],
});
if (result.errors.length > 0) {
  console.error('electronegativity: files could not be parsed:', result.errors);
  process.exit(1);
}

const lineOf = (file, line) => {
  const path = join(input, file);
  return existsSync(path) ? (readFileSync(path, 'utf8').split('\n')[line - 1] ?? '') : '';
};
const used = new Set();
const justification = (issue) =>
  allowlist.find((entry, i) => {
    const ok =
      entry.id === issue.id &&
      entry.file === issue.file &&
      (entry.match === undefined || lineOf(issue.file, issue.location.line).includes(entry.match));
    if (ok) used.add(i);
    return ok;
  });

let failures = 0;
console.log(`electronegativity: ${result.issues.length} finding(s) in dist/main/shell`);
for (const issue of result.issues) {
  const entry = justification(issue);
  const serious = issue.severity.value >= SEVERITY_FLOOR;
  const verdict = entry ? 'justified' : serious ? 'FAIL' : 'info';
  if (verdict === 'FAIL') failures++;
  console.log(
    `  ${verdict.padEnd(9)} ${issue.severity.name.padEnd(6)} ${issue.id} ${issue.file}:${issue.location.line} — ${issue.description}`,
  );
  if (entry) console.log(`            reason: ${entry.reason}`);
}
allowlist.forEach((entry, i) => {
  if (!used.has(i)) {
    failures++;
    console.log(`  STALE     allowlist entry justifies nothing: ${entry.id} ${entry.file} ${entry.match ?? ''}`);
  }
});
if (failures > 0) {
  console.error(`electronegativity: ${failures} unjustified finding(s) or stale allowlist entries`);
  process.exit(1);
}
console.log('electronegativity: every MEDIUM-or-higher finding is justified');
