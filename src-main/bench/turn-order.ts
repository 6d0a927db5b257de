/**
 * The order in which round `round` visits `n` sides: each round starts one side later
 * (0, 1, …, n−1; then 1, …, n−1, 0; …), so over n rounds every side takes every place once. In
 * a fixed order, the side measured first or last in a round of autocannon runs came out up to
 * 0.08 of the floor better than the same code measured in the middle ("A side's place in the
 * round moved its throughput figure" in docs/speed-history.md, which git keeps before a647cf6).
 */
export function turnOrder(n: number, round: number): number[] {
  return Array.from({ length: n }, (_, i) => (round + i) % n);
}
