import { displayWidth } from './display-width.js';

/** A row whose description starts further in than this is folded under its name instead (`  --flag\n      text`). */
const MIN_DESCRIPTION_CELLS = 24;
const FOLDED_INDENT = 6;

/**
 * Text wrapped to `width` cells at spaces, for a terminal: a table row (`  name  description`) goes on under its
 * description, prose under its own indent. A word longer than a line stays whole: nothing is cut.
 */
export function wrapText(text: string, width: number): string {
  return text.split('\n').map((line) => wrapLine(line, width)).join('\n');
}

function wrapLine(line: string, width: number): string {
  if (displayWidth(line) <= width) return line;
  const row = /^(\s*\S.*?\s{2,})(\S.*)$/.exec(line);
  const lead = row ? row[1]! : /^\s*/.exec(line)![0];
  const rest = row ? row[2]! : line.slice(lead.length);
  const indent = displayWidth(lead);
  if (row && width - indent < MIN_DESCRIPTION_CELLS) {
    return [lead.trimEnd(), ...fill(rest, ' '.repeat(FOLDED_INDENT), width)].join('\n');
  }
  const [first = '', ...more] = fill(rest, ' '.repeat(indent), width);
  return [lead + first.trimStart(), ...more].join('\n');
}

/** The words of `text` on lines of at most `width` cells, each line starting with `indent`. */
function fill(text: string, indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(' ').filter((w) => w !== '')) {
    const next = line === indent ? line + word : `${line} ${word}`;
    if (displayWidth(next) > width && line !== indent) {
      lines.push(line);
      line = indent + word;
    } else {
      line = next;
    }
  }
  lines.push(line);
  return lines;
}
