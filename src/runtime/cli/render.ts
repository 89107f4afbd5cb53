import type { Envelope } from '../../contract/envelope.js';
import type { IncompleteData } from '../../contract/incomplete.js';

/** ANSI styling for people at a terminal; a no-op when color is off. */
export interface Paint {
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** Color only for a terminal and never under NO_COLOR (set and not empty, per no-color.org). */
export function paintFor(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): Paint {
  const on = isTTY && !env['NO_COLOR'] && env['TERM'] !== 'dumb';
  return on
    ? { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) }
    : { red: plain, yellow: plain, dim: plain, bold: plain };
}

/** JSON mode: the envelope, one document, one line. */
export function renderJson(envelope: Envelope): string {
  return `${JSON.stringify(envelope)}\n`;
}

function indentYaml(value: unknown, depth: number): string {
  const pad = '  '.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value.map((item) => `\n${pad}-${indentYaml(item, depth + 1).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return ' {}';
    return entries.map(([key, item]) => `\n${pad}${key}:${indentYaml(item, depth + 1)}`).join('');
  }
  return ` ${typeof value === 'string' ? value : JSON.stringify(value)}`;
}

/** A readable outline of any data, for `--format text` when a command has no renderer of its own. */
export function outline(value: unknown): string {
  return `${indentYaml(value, 0).replace(/^\n/, '').replace(/^ /, '')}\n`;
}

/** Text mode, failure side: what people read on stderr. */
export function renderErrorText(programName: string, envelope: Envelope, paint: Paint): string {
  const error = envelope.error;
  if (!error) return '';
  const label = paint.red(paint.bold('error'));
  const tag = paint.dim(`[${error.code}, exit ${envelope.meta.exit_code}]`);
  const lines = [`${programName}: ${label} ${tag} ${error.message}`];
  const items = error.errors ?? [];
  for (const item of items.length > 1 || items[0]?.suggestion ? items : []) {
    lines.push(`  - ${item.message}${item.suggestion ? ` (did you mean ${item.suggestion}?)` : ''}`);
  }
  if (error.detail) lines.push(`  ${error.detail}`);
  if (error.fix_required) lines.push(`  fix: ${error.fix_required}`);
  // Said once: a suggestion the message or an item already carries is not repeated.
  const itemSuggests = (error.errors ?? []).some((item) => item.suggestion);
  if (error.suggestion && !itemSuggests && !error.message.includes(error.suggestion)) {
    lines.push(`  try: ${error.suggestion}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * An INCOMPLETE (14) answer for people: a notice, neither an error nor red, with the command that continues
 * the work and the one that cancels it (`stint analyze: Stopped at the call's 2s budget with 29% done (…); …`).
 */
export function renderNoticeText(programName: string, envelope: Envelope): string {
  const data = envelope.data as Partial<IncompleteData> | null;
  const who = envelope.meta.command ? `${programName} ${envelope.meta.command}` : programName;
  const lines = [`${who}: ${envelope.error?.message ?? 'the work is not finished'}`];
  if (data?.continue_command) lines.push(`  continue with: ${data.continue_command}`);
  if (data?.cancel_command) lines.push(`  cancel with:   ${data.cancel_command}`);
  return `${lines.join('\n')}\n`;
}

export function renderWarningsText(programName: string, envelope: Envelope, paint: Paint): string {
  return envelope.warnings
    .map((w) => `${programName}: ${paint.yellow('warning')} ${paint.dim(`[${w.code}]`)} ${w.message}\n`)
    .join('');
}
