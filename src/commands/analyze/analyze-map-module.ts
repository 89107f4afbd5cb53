/** The worker-side map of `analyze`'s chunks, as its command registers it (queue workers run only registered maps). */
export const ANALYZE_MAP = new URL('./map/csv-stats-map.js', import.meta.url).href;
