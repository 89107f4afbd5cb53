/** The worker-side map of `import`'s chunks, as its command registers it (queue workers run only registered maps). */
export const IMPORT_MAP = new URL('./map/import-map.js', import.meta.url).href;
