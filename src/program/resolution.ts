import type { Envelope } from '../contract/envelope.js';
import type { Invocation } from '../runtime/call/invocation.js';

/**
 * Help to show with an answer, wrapped to `width` cells when it goes to a terminal. It is wrapped when written,
 * so a call that shows none (`--version`, any command) never loads the text-width code.
 */
export interface HelpShown {
  readonly text: string;
  readonly width: number | undefined;
  /** On stderr (beside a JSON answer, or before an argument error); else it is the answer's text on stdout. */
  readonly toStderr: boolean;
}

/** Either a response to give at once (help, version, argument errors) or a validated invocation to run. */
export type Resolution =
  | { readonly kind: 'answer'; readonly envelope: Envelope; readonly text?: string; readonly help?: HelpShown }
  | { readonly kind: 'run'; readonly inv: Invocation };

/** The help as shown: wrapped to its terminal's width, as written when piped. */
export async function helpText(help: HelpShown): Promise<string> {
  if (!help.width) return help.text;
  const { wrapText } = await import('../runtime/cli/wrap-text.js');
  return wrapText(help.text, help.width - 1);
}
