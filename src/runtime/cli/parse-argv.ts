import { parseArgs } from 'node:util';
import type { FieldError } from '../../contract/envelope.js';
import { ArgProblem } from '../../contract/vocabulary/arg-problem.js';
import { OutputFormat } from '../../contract/vocabulary/output-format.js';
import { isMemberOf } from '../../contract/vocabulary/closed-set.js';
import type { FlagSpec, PositionalSpec } from '../authoring/command-spec.js';
import type { CommandNode } from './command-tree.js';
import { formatSize, parseSize, SIZE_EXAMPLES } from './byte-size.js';
import { parseDuration } from './duration.js';
import { GLOBAL_FLAGS, GlobalFlag } from '../authoring/framework-flags.js';
import { helpWordAsFlag } from './help-word.js';
import { nearest } from './suggest.js';

export interface ParsedGlobals {
  readonly format?: OutputFormat;
  readonly help: boolean;
  readonly version: boolean;
}

/** The outcome of reading argv: the node reached, the values read, and every problem found. */
export interface ParsedCall {
  readonly globals: ParsedGlobals;
  /** The deepest node the words reached (a command, or a group such as `job`). */
  readonly node: CommandNode;
  readonly flags: Record<string, unknown>;
  readonly positionals: Record<string, unknown>;
  /** The flags the caller actually gave (not defaults), by name: for normalised job keys. */
  readonly given: Record<string, unknown>;
  readonly errors: FieldError[];
}

const isNegativeNumber = (text: string): boolean => /^-\d+(\.\d+)?$/.test(text);
const looksLikeFlag = (text: string): boolean => text.startsWith('-') && text !== '-' && !isNegativeNumber(text);

/** The global flags that take no value, as a caller may spell them. */
const GLOBAL_SWITCHES: ReadonlySet<string> = new Set([GlobalFlag.Help, GlobalFlag.Version].flatMap((name) => {
  const short = GLOBAL_FLAGS[name]!.short;
  return short ? [`--${name}`, `-${short}`] : [`--${name}`];
}));

/** Walks the leading words down the command tree, stepping over global flags. */
function findNode(
  root: CommandNode,
  args: readonly string[],
): { node: CommandNode; pathIndexes: Set<number>; stray?: { word: string; index: number } } {
  let node = root;
  const pathIndexes = new Set<number>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg === `--${GlobalFlag.Format}`) { i++; continue; }
    if (arg.startsWith(`--${GlobalFlag.Format}=`) || GLOBAL_SWITCHES.has(arg)) continue;
    if (looksLikeFlag(arg)) break;
    const child = node.children.get(arg);
    if (!child) return node.command ? { node, pathIndexes } : { node, pathIndexes, stray: { word: arg, index: i } };
    node = child;
    pathIndexes.add(i);
  }
  return { node, pathIndexes };
}

function convert(
  name: string,
  flag: FlagSpec | PositionalSpec,
  raw: string,
  errors: FieldError[],
  field: string,
): unknown {
  const bad = (expected: string): undefined => {
    errors.push({ field, reason: ArgProblem.MalformedValue, message: `${name}: "${raw}" is not ${expected}` });
    return undefined;
  };
  const min = 'min' in flag ? flag.min : undefined;
  const max = 'max' in flag ? flag.max : undefined;
  /** The value, or a malformed-value error naming the bound it breaks. */
  const bounded = (value: number, kind: string, shown: (bound: number) => string = String) =>
    min !== undefined && value < min
      ? bad(`${kind} of at least ${shown(min)}`)
      : max !== undefined && value > max ? bad(`${kind} of at most ${shown(max)}`) : value;
  switch (flag.type) {
    case 'integer': {
      if (!/^-?\d+$/.test(raw)) return bad('an integer');
      return bounded(Number(raw), 'an integer');
    }
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value)) return bad('a number');
      return bounded(value, 'a number');
    }
    case 'duration': {
      const value = parseDuration(raw);
      if (value === undefined) return bad('a duration (250, 250ms, 5s, 2m, 1h)');
      return bounded(value, 'a duration', (ms) => `${ms}ms`);
    }
    case 'bytes': {
      const value = parseSize(raw);
      if (value === undefined) return bad(`a size (${SIZE_EXAMPLES})`);
      return bounded(value, 'a size', formatSize);
    }
    case 'enum': {
      const values = flag.enumValues ?? [];
      if (values.includes(raw)) return raw;
      const guess = nearest(raw, values);
      errors.push({
        field,
        reason: ArgProblem.MalformedValue,
        message: `${name}: "${raw}" is not one of ${values.join(', ')}`,
        ...(guess ? { suggestion: guess } : {}),
      });
      return undefined;
    }
    default:
      return raw;
  }
}

type ArgsToken = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** An unknown flag; met after a command line's first word (afterTerminator), it most likely belongs after `--`. */
function unknownFlag(
  name: string, display: string, command: CommandNode['command'], afterWords: boolean, known: Record<string, FlagSpec>,
): FieldError {
  const guess = nearest(name, Object.keys(known));
  const path = command?.path.join(' ');
  const line = command?.spec.positionals?.at(-1);
  const hint = afterWords && line?.afterTerminator
    ? `; the ${line.name} to run goes after --, with its flags: ${path} [flags] -- <${line.name}...>`
    : '';
  return {
    field: `--${name}`,
    reason: ArgProblem.UnknownFlag,
    message: `unknown flag ${display}${command ? ` for "${path}"` : ''}${hint}`,
    ...(guess && !hint ? { suggestion: `--${guess}` } : {}),
  };
}

/** The raw flag values and the positional words of the tokens; unknown, valueless or repeated flags are errors. */
function readTokens(
  tokens: readonly ArgsToken[],
  known: Record<string, FlagSpec>,
  command: CommandNode['command'],
  errors: FieldError[],
): { rawFlags: Map<string, string | boolean>; words: string[] } {
  const rawFlags = new Map<string, string | boolean>();
  const words: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') { words.push(token.value); continue; }
    if (token.kind === 'option-terminator') continue;
    const flag = known[token.name];
    const display = token.rawName;
    if (!flag) {
      errors.push(unknownFlag(token.name, display, command, words.length > 0, known));
      continue;
    }
    let value: string | boolean;
    if (flag.type === 'boolean') {
      if (token.inlineValue) {
        const message = `${display} takes no value`;
        errors.push({ field: `--${token.name}`, reason: ArgProblem.MalformedValue, message });
        continue;
      }
      value = true;
    } else if (token.value === undefined || (!token.inlineValue && looksLikeFlag(token.value))) {
      errors.push({ field: `--${token.name}`, reason: ArgProblem.MissingValue, message: `${display} needs a value` });
      continue;
    } else {
      value = token.value;
    }
    const previous = rawFlags.get(token.name);
    if (previous !== undefined && previous !== value) {
      errors.push({
        field: `--${token.name}`,
        reason: ArgProblem.ConflictingValue,
        message: `--${token.name} was given twice with different values`,
      });
      continue;
    }
    rawFlags.set(token.name, value);
  }
  return { rawFlags, words };
}

/** The command's own flags: given values converted, defaults filled in, missing required ones reported. */
function readLocalFlags(
  local: Readonly<Record<string, FlagSpec>>,
  rawFlags: ReadonlyMap<string, string | boolean>,
  errors: FieldError[],
): { flags: Record<string, unknown>; given: Record<string, unknown> } {
  const flags: Record<string, unknown> = {};
  const given: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(local)) {
    const raw = rawFlags.get(name);
    if (raw === undefined) {
      if (flag.default !== undefined) flags[name] = flag.default;
      else if (flag.type === 'boolean') flags[name] = false;
      else if (flag.required) {
        errors.push({ field: `--${name}`, reason: ArgProblem.MissingFlag, message: `--${name} is required` });
      }
      continue;
    }
    const value = typeof raw === 'boolean' ? raw : convert(`--${name}`, flag, raw, errors, `--${name}`);
    if (value !== undefined) flags[name] = given[name] = value;
  }
  return { flags, given };
}

/** The positional words matched to the command's positionals, in order; missing or extra ones are errors. */
function readPositionals(
  specs: readonly PositionalSpec[],
  words: readonly string[],
  errors: FieldError[],
): Record<string, unknown> {
  const positionals: Record<string, unknown> = {};
  let cursor = 0;
  for (const spec of specs) {
    if (spec.variadic) {
      const values = words.slice(cursor);
      cursor = words.length;
      if (values.length === 0 && spec.required !== false) {
        errors.push({
          field: spec.name,
          reason: ArgProblem.MissingArgument,
          message: `<${spec.name}...> needs at least one value`,
        });
      }
      positionals[spec.name] = values;
      continue;
    }
    const raw = words[cursor++];
    if (raw === undefined) {
      if (spec.required !== false) {
        errors.push({ field: spec.name, reason: ArgProblem.MissingArgument, message: `<${spec.name}> is required` });
      }
      continue;
    }
    const value = convert(`<${spec.name}>`, spec, raw, errors, spec.name);
    if (value !== undefined) positionals[spec.name] = value;
  }
  for (const extra of words.slice(cursor)) {
    const message = `unexpected argument "${extra}"`;
    errors.push({ field: 'arguments', reason: ArgProblem.UnexpectedArgument, message });
  }
  return positionals;
}

/**
 * Reads argv against the command tree. Never throws for bad input: every
 * problem is collected so that one ARG_ERROR names them all.
 */
export function parseArgv(root: CommandNode, typed: readonly string[]): ParsedCall {
  const errors: FieldError[] = [];
  const argv = helpWordAsFlag(root, typed);
  const { node, pathIndexes, stray } = findNode(root, argv);
  const command = node.command;
  const local = command?.flags ?? {};
  const known: Record<string, FlagSpec> = { ...GLOBAL_FLAGS, ...local };

  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, flag] of Object.entries(known)) {
    const type = flag.type === 'boolean' ? 'boolean' : 'string';
    options[name] = { type, ...(flag.short ? { short: flag.short } : {}) };
  }
  const rest = argv.filter((_, index) => !pathIndexes.has(index));
  const { tokens } = parseArgs({ args: [...rest], options, strict: false, allowPositionals: true, tokens: true });
  const { rawFlags, words } = readTokens(tokens, known, command, errors);

  if (stray) {
    const guess = nearest(stray.word, node.children.keys());
    const where = node.path.length ? `"${node.path.join(' ')}"` : 'the program';
    errors.push({
      field: 'command',
      reason: ArgProblem.UnknownCommand,
      message: `unknown command "${stray.word}" for ${where}`,
      ...(guess ? { suggestion: [...node.path, guess].join(' ') } : {}),
    });
  }

  const formatRaw = rawFlags.get(GlobalFlag.Format);
  let format: OutputFormat | undefined;
  if (typeof formatRaw === 'string') {
    const spec = GLOBAL_FLAGS[GlobalFlag.Format]!;
    format = convert('--format', spec, formatRaw, errors, '--format') as OutputFormat | undefined;
  }
  const globals: ParsedGlobals = {
    ...(isMemberOf(OutputFormat, format) ? { format } : {}),
    help: rawFlags.get(GlobalFlag.Help) === true,
    version: rawFlags.get(GlobalFlag.Version) === true,
  };

  if (!command) {
    if (!stray && !globals.help && !globals.version) {
      const choices = [...node.children.keys()].sort();
      errors.push({
        field: 'command',
        reason: ArgProblem.MissingCommand,
        message: node.path.length
          ? `"${node.path.join(' ')}" needs a subcommand: ${choices.join(', ')}`
          : `a command is required: ${choices.join(', ')}`,
      });
    }
    return { globals, node, flags: {}, positionals: {}, given: {}, errors };
  }

  const { flags, given } = readLocalFlags(local, rawFlags, errors);
  const positionals = readPositionals(command.spec.positionals ?? [], words, errors);
  return { globals, node, flags, positionals, given, errors };
}
