/** `--output -`: the rows go to stdout. */
export const STDOUT = '-';
