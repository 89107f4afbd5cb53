/** The global --format values. */
export const OutputFormat = {
  Json: 'json',
  Text: 'text',
} as const;
export type OutputFormat = (typeof OutputFormat)[keyof typeof OutputFormat];
