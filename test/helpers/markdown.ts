// Just enough Markdown for the documentation's tests: fenced code blocks, headings, their anchors and links.

const FENCE = /^```[^\n]*\n[\s\S]*?^```[ \t]*$/gm;

/** The text with its fenced code blocks blanked, so neither headings nor links are read inside code. */
export const withoutCode = (markdown: string): string => markdown.replace(FENCE, '');

/** The lines of the text, each with whether it lies inside a fenced code block (a fence line counts as inside). */
function linesInCode(markdown: string): { line: string; inCode: boolean }[] {
  let inCode = false;
  return markdown.split('\n').map((line) => {
    const fence = line.startsWith('```');
    if (fence) inCode = !inCode;
    return { line, inCode: inCode || fence };
  });
}

const isHeading = ({ line, inCode }: { line: string; inCode: boolean }): boolean => !inCode && /^#{1,6} /.test(line);

/** The section under a heading of exactly this text, up to the next heading of any level (or the end). */
export function sectionUnder(markdown: string, heading: string): string | undefined {
  const lines = linesInCode(markdown);
  const start = lines.findIndex((each) => isHeading(each) && each.line.replace(/^#+ /, '') === heading);
  if (start < 0) return undefined;
  const after = lines.slice(start + 1);
  const end = after.findIndex(isHeading);
  return (end < 0 ? after : after.slice(0, end)).map((each) => each.line).join('\n');
}

/** The bodies of the fenced code blocks of one language, in order. */
export function codeBlocks(markdown: string, language: string): string[] {
  const blocks = markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm);
  return [...blocks].filter((m) => m[1]!.trim() === language).map((m) => m[2]!);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
export function slugOf(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text.toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
}

/** Every anchor the file's headings make; a repeated one gets -1, -2, ... as on GitHub. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = slugOf(heading!.trim());
    const count = seen.get(slug) ?? 0;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** The targets of the links and images outside code that point into the repository (no scheme). */
export function relativeLinks(markdown: string): string[] {
  const text = withoutCode(markdown);
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}
