/** What to do with a malformed row. */
export const OnBadRow = { Skip: 'skip', Fail: 'fail' } as const;
export type OnBadRow = (typeof OnBadRow)[keyof typeof OnBadRow];
