// `npm run fuzz [-- runs]`: the hostile-input property tests with a random seed and many more runs
// than CI's fixed-seed pass. The seed is printed first, so a failure can be replayed exactly:
//   FUZZ_SEED=<seed> FUZZ_RUNS=<runs> npx vitest run src-main/service/hostile
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';

const seed = Number(process.env.FUZZ_SEED ?? randomInt(2 ** 31 - 1));
const runs = Number(process.argv[2] ?? process.env.FUZZ_RUNS ?? 2000);
console.log(`fuzz: FUZZ_SEED=${seed} FUZZ_RUNS=${runs}`);
const result = spawnSync(
  'npx',
  // Durability takes the seed too: its kill moments move with it.
  ['vitest', 'run', 'src-main/service/hostile', '--testTimeout', '600000'],
  { stdio: 'inherit', env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_RUNS: String(runs) } },
);
console.log(`fuzz: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} → ${result.status === 0 ? 'passed' : 'FAILED'}`);
process.exit(result.status ?? 1);
