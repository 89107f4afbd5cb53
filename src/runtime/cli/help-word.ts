import type { CommandNode } from './command-tree.js';
import { GlobalFlag } from '../authoring/framework-flags.js';

/** The word that asks for help as people expect it: `<program> help job wait` is `<program> job wait --help`. */
export const HELP_WORD = 'help';

/**
 * Rewrites a leading `help` word (global flags may come before it) into `--help`, so help through the
 * word and through the flag is one path. A program whose own command is named `help` keeps it.
 */
export function helpWordAsFlag(root: CommandNode, argv: readonly string[]): readonly string[] {
  if (root.children.has(HELP_WORD)) return argv;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === `--${GlobalFlag.Format}`) { i++; continue; }
    if (arg.startsWith('-')) continue;
    return arg === HELP_WORD ? [...argv.slice(0, i), `--${GlobalFlag.Help}`, ...argv.slice(i + 1)] : argv;
  }
  return argv;
}
