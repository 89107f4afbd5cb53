/** The worker-side map of `analyze`'s chunks, as its command registers it (a queue worker runs only registered maps). */
export const ANALYZE_MAP = new URL('./csv-stats-map.js', import.meta.url).href;
