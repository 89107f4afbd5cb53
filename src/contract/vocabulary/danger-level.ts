/** How much a command may change (CommandEntry.danger_level). */
export const DangerLevel = {
  Safe: 'safe',
  Mutating: 'mutating',
  Destructive: 'destructive',
} as const;
export type DangerLevel = (typeof DangerLevel)[keyof typeof DangerLevel];

/** Writers must accept --idempotency-key and declare a non-retryable INCOMPLETE. */
export function writes(level: DangerLevel): boolean {
  return level !== DangerLevel.Safe;
}
