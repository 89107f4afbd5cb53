/** How an analyzed file was compressed, as its citation names it (a plain file's citation names none). */
export const Compression = {
  Gzip: 'gzip',
} as const;
export type Compression = (typeof Compression)[keyof typeof Compression];
