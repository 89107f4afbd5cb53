/** How much of a request split into parts was established (all, some, none). A field, never prose. */
export const Coverage = {
  Complete: 'complete',
  Partial: 'partial',
  None: 'none',
} as const;
export type Coverage = (typeof Coverage)[keyof typeof Coverage];
