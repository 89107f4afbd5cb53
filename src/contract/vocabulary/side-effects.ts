/** What an exit leaves behind (ExitCodeEntry.sideEffects). */
export const SideEffects = {
  None: 'none',
  Partial: 'partial',
  Complete: 'complete',
} as const;
export type SideEffects = (typeof SideEffects)[keyof typeof SideEffects];
