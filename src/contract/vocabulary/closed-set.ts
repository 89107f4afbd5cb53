/** The values of an `as const` vocabulary object, in declaration order. */
export function membersOf<const V extends Record<string, string>>(vocabulary: V): ReadonlyArray<V[keyof V]> {
  return Object.freeze(Object.values(vocabulary)) as ReadonlyArray<V[keyof V]>;
}

/** True when `value` is one of the vocabulary's members (for values read from disk or argv). */
export function isMemberOf<const V extends Record<string, string>>(vocabulary: V, value: unknown): value is V[keyof V] {
  return typeof value === 'string' && (Object.values(vocabulary) as string[]).includes(value);
}
