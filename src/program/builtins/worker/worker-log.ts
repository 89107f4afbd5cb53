/** How a worker tells its chunks: a line for people, or a JSON object a line (both on stderr). */
export const WorkerLog = { Text: 'text', Json: 'json' } as const;
export type WorkerLog = (typeof WorkerLog)[keyof typeof WorkerLog];
