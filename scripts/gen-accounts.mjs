// Writes accounts as NDJSON for `npm run admin -- import --collection accounts`, made independently
// of the service's demo seeder (src-main/service/demo): its own PRNG, its own names, its own record
// shape. The bench (issue 43) measures on data like this so that its figures do not depend on the
// one distribution and layout the project generates itself.
//
// What differs from the seeder's accounts:
//   - surnames: "Smith" is exactly 12 % of accounts; the rest follow a Zipf law (s = 1.0) over
//     about 160 real surnames from several countries (some starting lower-case: "van Dijk",
//     "de la Cruz", "s'Jacob") and a long tail of made-up ones (several thousand distinct values);
//   - `_id`s are ObjectId-like (creation second + random bytes) but the lines come in random
//     creation order, so neither the file nor the insert order follows `_id` or `created`;
//   - `created` spreads over 2018–2025, `updated` follows it; a third of the accounts have no
//     mobile, 3 % no first name, a fifth no locale; no roles, study groups on a few.
//
// Usage: node scripts/gen-accounts.mjs --count 100000 [--seed 7] [--out accounts.ndjson]
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '7' },
    out: { type: 'string' },
  },
});
const COUNT = Number(values.count);
if (!Number.isSafeInteger(COUNT) || COUNT < 1) throw new Error('--count must be a positive integer');

/** mulberry32: small and seedable (not the seeder's sfc32). */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(Number(values.seed));
const int = (n) => Math.floor(rand() * n);
const pick = (items) => items[int(items.length)];

const REAL_SURNAMES = `Müller García Nguyen Kowalski Rossi Schmidt Martin Wang Kim Silva Jones Taylor Brown Wilson
Johnson Williams Lee Patel Singh Kumar Hernández López González Pérez Sánchez Ramírez Torres Flores Rivera Gómez
Díaz Cruz Morales Reyes Gutiérrez Ortiz Chávez Ruiz Álvarez Castillo Jiménez Moreno Romero Herrera Medina Aguilar
Vargas Castro Ramos Mendoza Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer Richter
Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Krause Meier
Lehmann Schmid Schulze Maier Köhler Herrmann Nowak Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński
Szymański Woźniak Dąbrowski Bianchi Romano Colombo Ricci Marino Greco Bruno Gallo Conti Costa Giordano Mancini
Rizzo Lombardi Moretti Tran Le Pham Hoang Phan Vu Dang Bui Do Ho Ngo Duong Ly Sato Suzuki Takahashi Tanaka Watanabe
Ito Yamamoto Nakamura Kobayashi Kato Shah Sharma Gupta Mehta Iyer Nair Reddy Rao Das Murphy Kelly Sullivan Walsh
O'Brien Byrne Ryan O'Connor O'Neill Doyle Santos Oliveira Souza Pereira Lima Carvalho Ferreira Almeida Novak Horvat
Svoboda Dvořák Černý Procházka Kuchař Sokolov Smirnov Ivanov Popov Petrov Volkov Stone Sutherland Sørensen`
  .split(/\s+/)
  .concat([
    'van Dijk',
    'van der Berg',
    'de Jong',
    'de la Cruz',
    'da Silva',
    'del Río',
    "s'Jacob",
    'von Stein',
    'la Rue',
  ]);
const SYLLABLES = 'ka ri so ne ma lo ti ve sa ur an el ber hol stra win dor mak ping sel ter qua zin'.split(' ');
/** Made-up surnames for the long tail: two or three syllables, capitalised. */
function madeUp(i) {
  const r = prng(1000 + i);
  const n = 2 + Math.floor(r() * 2);
  let s = '';
  for (let k = 0; k < n; k++) s += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
  return s.charAt(0).toUpperCase() + s.slice(1);
}
const SURNAMES = [...REAL_SURNAMES, ...Array.from({ length: 6000 }, (_, i) => madeUp(i))];
const SMITH_SHARE = 0.12;

/** Zipf weights 1/(i+1)^s as a cumulative table; a pick is a binary search. */
function zipf(items, s) {
  const cumulative = [];
  let sum = 0;
  for (let i = 0; i < items.length; i++) cumulative.push((sum += 1 / Math.pow(i + 1, s)));
  return () => {
    const x = rand() * sum;
    let [lo, hi] = [0, items.length - 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo];
  };
}
const surname = zipf(SURNAMES, 1.0);
const FIRST = `Anna Luca Mia Noah Emma Leon Sofia Elias Lena Ben Olivia Jonas Hana Yuki Aiko Ren Minh Linh Anh Priya
Arjun Aditi Rohan Maria José Juan Lucía Carmen Pedro Ana Pablo Sven Ingrid Lars Astrid Piotr Zofia Jan Kasia Marco
Giulia Chiara Matteo Liam Aoife Seán Niamh Oisín Chloé Hugo Inès Théo Léa Amara Kofi Zainab Omar Layla Yusuf Fatima
Chen Wei Mei Jun Hiro Sakura Ole Freya Nils Aleksandr Olga Dmitri Irina Tomás Beatriz Rafael Camila Mateo`.split(/\s+/);
const firstName = zipf(FIRST, 0.8);
const DOMAINS = ['mail.test', 'example.org', 'clinic.example', 'uni.example.edu', 'post.example.net'];
const LOCALES = ['en_GB', 'de_DE', 'fr_FR', 'es_ES', 'pl_PL', 'vi_VN', 'ja_JP', 'hi_IN', 'pt_BR', 'it_IT'];
const GROUPS = ['alpha', 'beta', 'gamma', 'delta'];

const FROM = Date.UTC(2018, 0, 1);
const TO = Date.UTC(2025, 11, 31);
const hex = (n, digits) => n.toString(16).padStart(digits, '0');
const ascii = (s) =>
  s
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase() || 'x';

function account(i) {
  const last = rand() < SMITH_SHARE ? 'Smith' : surname();
  const first = rand() < 0.03 ? undefined : firstName();
  const created = FROM + int(TO - FROM);
  const doc = {
    // ObjectId-like: the creation second, then 8 random bytes (as 4 + 4, each 32 bits).
    _id: hex(Math.floor(created / 1000), 8) + hex(int(2 ** 32), 8) + hex(int(2 ** 32), 8),
    email: `${ascii(first ?? 'user')}.${ascii(last)}.${i}@${pick(DOMAINS)}`,
    name: first === undefined ? { last } : { first, last },
    created: new Date(created).toISOString(),
    updated: new Date(created + int(400 * 86400_000)).toISOString(),
  };
  if (rand() < 0.67)
    doc.mobile = `+${1 + int(98)}${hex(int(2 ** 32), 1)
      .replace(/[a-f]/g, '7')
      .slice(0, 9)}`;
  if (rand() < 0.8) doc.locale = pick(LOCALES);
  if (rand() < 0.5) doc.gender = pick(['f', 'm', 'x']);
  if (rand() < 0.1) doc.c_study_groups = [pick(GROUPS)];
  doc.favorite = rand() < 0.05;
  return doc;
}

const out = values.out ? createWriteStream(values.out) : process.stdout;
let buffered = '';
for (let i = 0; i < COUNT; i++) {
  buffered += JSON.stringify(account(i)) + '\n';
  if (buffered.length > 1 << 20) {
    if (!out.write(buffered)) await new Promise((r) => out.once('drain', r));
    buffered = '';
  }
}
out.end(buffered);
await new Promise((resolve, reject) => out.once('finish', resolve).once('error', reject));
