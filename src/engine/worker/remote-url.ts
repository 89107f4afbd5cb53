// The names of remote inputs: which paths name one, and how answers show them.

/** An http://, https:// or s3:// input (read by byte range), not a local file's path. */
export const isRemotePath = (path: string): boolean => /^(https?|s3):\/\//i.test(path);

export const isS3Url = (url: string): boolean => /^s3:\/\//i.test(url);

/** The URL as answers may show it: no user or password. */
export const shownUrl = (url: string): string => url.replace(/^(https?:\/\/)[^@/?#]*@/i, '$1');
