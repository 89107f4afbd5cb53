// What the tests use of s3rver (an S3-compatible server from npm, without types of its own).
declare module 's3rver' {
  interface S3rverOptions {
    readonly port?: number;
    readonly address?: string;
    readonly silent?: boolean;
    readonly directory: string;
    readonly configureBuckets?: readonly { readonly name: string }[];
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    run(): Promise<{ readonly port: number }>;
    close(): Promise<void>;
  }
}
