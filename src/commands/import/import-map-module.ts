/** The worker-side map of `import`'s chunks, as its command registers it (a queue worker runs only registered maps). */
export const IMPORT_MAP = new URL('./import-map.js', import.meta.url).href;
