/** How much of a decomposed request was established (seed 004). A field, never prose. */
export const Coverage = {
  Complete: 'complete',
  Partial: 'partial',
  None: 'none',
} as const;
export type Coverage = (typeof Coverage)[keyof typeof Coverage];
