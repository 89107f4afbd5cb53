const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word for a POSIX shell: left bare when safe, else single-quoted. */
export function shellQuote(word: string): string {
  if (word !== '' && SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line a shell runs verbatim to get these exact words back. */
export function shellJoin(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
