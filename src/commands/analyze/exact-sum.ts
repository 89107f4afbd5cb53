/**
 * An exact sum of doubles (Shewchuk's non-overlapping partials, as in
 * Python's math.fsum). Exact sums are associative, so chunks folded in any
 * grouping give the same correctly rounded total as one sequential pass.
 */
export type ExactSum = number[];

export function addExact(partials: ExactSum, value: number): void {
  let x = value;
  let used = 0;
  const n = partials.length;
  for (let j = 0; j < n; j++) {
    let y = partials[j]!;
    if (Math.abs(x) < Math.abs(y)) {
      const t = x;
      x = y;
      y = t;
    }
    const hi = x + y;
    const lo = y - (hi - x);
    if (lo !== 0) partials[used++] = lo;
    x = hi;
  }
  if (used === n) partials.push(x);
  else {
    partials[used++] = x;
    // pop() is inlined by V8; assigning length is a slow builtin call.
    while (partials.length > used) partials.pop();
  }
}

/** The correctly rounded value of the exact sum. */
export function roundExact(partials: ExactSum): number {
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}
