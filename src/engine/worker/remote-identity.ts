/** What a remote object is: its size and what names this version of it. */
export interface RemoteIdentity {
  readonly size: number;
  /** The ETag, when the store gives one (else `lastModified` names the version). */
  readonly tag?: string;
  readonly lastModified?: string;
}
