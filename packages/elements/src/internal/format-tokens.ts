/**
 * A token count as pi's footer writes it (`formatTokens` in pi's interactive footer, the same in 0.73.1 and 1.6.0):
 * 999, 1.2k, 12k, 1.2M, 12M. Kept to pi's ASCII form in every language, as the footer is: it is what a pi user
 * reads in the terminal, and the exact number is given beside it in words for screen readers.
 */
export function formatTokens(count: number): string {
  if (count < 1000) return count.toString();
  if (count < 10000) return `${(count / 1000).toFixed(1)}k`;
  if (count < 1000000) return `${Math.round(count / 1000)}k`;
  if (count < 10000000) return `${(count / 1000000).toFixed(1)}M`;
  return `${Math.round(count / 1000000)}M`;
}
