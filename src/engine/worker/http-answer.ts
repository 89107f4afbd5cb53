// What a GET of a remote object answers, whichever client read it (http-get.ts).

export interface HttpAnswer {
  readonly status: number;
  /** A header's first value, by its lower-case name. */
  header(name: string): string | undefined;
  readonly body: Uint8Array;
}

/** Where a body of an announced length is read into (the fetch thread's is memory used before). */
export type BodyBuffer = (length: number) => Uint8Array;

export const freshBuffer: BodyBuffer = (length) => new Uint8Array(length);
