/** `1 row`, `2 rows`, `0 rows`: a count with its noun, for messages people read. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A count in a unit named in the plural (`rows`, `items`, or a command's own): `1 row`, `3 rows`. */
export function countOf(count: number, unit: string): string {
  return count === 1 && unit.endsWith('s') ? `${count} ${unit.slice(0, -1)}` : `${count} ${unit}`;
}
