/** What an exit leaves behind (ExitCodeEntry.side_effects). */
export const SideEffects = {
  None: 'none',
  Partial: 'partial',
  Complete: 'complete',
} as const;
export type SideEffects = (typeof SideEffects)[keyof typeof SideEffects];
