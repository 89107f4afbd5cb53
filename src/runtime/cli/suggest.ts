/** Edit distance, for "did you mean" suggestions. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The nearest candidate when it is near enough to be a likely typo, else undefined. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = candidate.startsWith(word) && word.length >= 2 ? 1 : distance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/**
 * The candidates a mistyped name likely meant, at most `limit`: the same name in another case; else the ones
 * that begin with it or hold it (`popu`: population, popular); else the nearest by edit distance, if near.
 */
export function likelyMeant(word: string, candidates: readonly string[], limit = 3): string[] {
  const lower = word.toLowerCase();
  const same = candidates.filter((c) => c.toLowerCase() === lower);
  if (same.length > 0) return same.slice(0, limit);
  const holding = lower.length >= 2 ? candidates.filter((c) => c.toLowerCase().includes(lower)) : [];
  const starts = holding.filter((c) => c.toLowerCase().startsWith(lower));
  const held = [...starts, ...holding.filter((c) => !starts.includes(c))];
  if (held.length > 0) return held.slice(0, limit);
  const near = nearest(lower, candidates.map((c) => c.toLowerCase()));
  return near === undefined ? [] : [candidates.find((c) => c.toLowerCase() === near)!];
}

/** `did you mean a?`, `did you mean a or b?`, `did you mean a, b or c?` */
export function didYouMean(names: readonly string[]): string {
  const listed = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
  return `did you mean ${listed}?`;
}
