/** What `job prune` did (data.effect); a repeated --idempotency-key answers `noop`. */
export const PruneEffect = { Removed: 'removed', WouldRemove: 'would_remove' } as const;
export type PruneEffect = (typeof PruneEffect)[keyof typeof PruneEffect];
