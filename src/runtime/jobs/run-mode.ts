/** Who is running the work: the caller's own process, or the detached supervisor. */
export const RunMode = { Front: 'front', Supervisor: 'supervisor' } as const;
export type RunMode = (typeof RunMode)[keyof typeof RunMode];
