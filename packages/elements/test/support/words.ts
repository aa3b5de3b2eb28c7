/**
 * `count` words ("w1234") from a small seeded generator, joined by spaces: the same seed gives the same text, two
 * seeds unrelated texts (for word diffs that cannot match up; bench/hostile-page.ts uses it too).
 */
export function words(count: number, seed: number): string {
  let state = seed;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(`w${state % 9973}`);
  }
  return out.join(" ");
}
