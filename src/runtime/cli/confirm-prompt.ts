import type { Host } from '../authoring/host.js';

/**
 * Asks a person at a terminal a yes/no question on stderr and reads one line of stdin: only `y` or `yes`
 * (any case) is a yes; an empty line, anything else or the end of input is a no.
 */
export async function askYesNo(host: Pick<Host, 'readStdin' | 'writeStderr'>, question: string): Promise<boolean> {
  host.writeStderr(`${question} [y/N] `);
  const decoder = new TextDecoder();
  let line = '';
  // Leaving the loop early closes stdin: nothing else of this call reads it.
  for await (const chunk of host.readStdin()) {
    line += decoder.decode(chunk, { stream: true });
    if (line.includes('\n')) break;
  }
  return /^\s*y(es)?\s*$/i.test(line.split('\n')[0] ?? '');
}
