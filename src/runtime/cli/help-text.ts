import { formatSize } from './byte-size.js';
import type { FlagSpec } from '../authoring/command-spec.js';
import { commandsUnder, type CommandNode } from './command-tree.js';
import type { RegisteredCommand } from '../authoring/define-command.js';
import { GLOBAL_FLAGS } from '../authoring/framework-flags.js';

/** A program's name (its state folder and environment prefix follow from it), version and one-line description. */
export interface ProgramIdentity {
  readonly name: string;
  readonly version: string;
  readonly description: string;
}

function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.min(32, Math.max(0, ...rows.map(([left]) => left.length)));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

function flagUsage(name: string, flag: FlagSpec): string {
  const short = flag.short ? `-${flag.short}, ` : '';
  const value = flag.type === 'boolean'
    ? ''
    : flag.type === 'enum' ? ` ${flag.enumValues?.join('|')}` : ` <${VALUE_WORD[flag.type] ?? flag.type}>`;
  return `${short}--${name}${value}`;
}

/** The word help shows for a value, where the type's own name would mislead (a size is `64MB`, not a count). */
const VALUE_WORD: Partial<Record<FlagSpec['type'], string>> = { bytes: 'size' };

/** A default as people write it: `4MiB`, not 4194304. */
function shownDefault(flag: FlagSpec): string {
  const value = flag.default;
  return flag.type === 'bytes' && typeof value === 'number' ? formatSize(value) : String(value);
}

function flagRows(flags: Readonly<Record<string, FlagSpec>>): [string, string][] {
  return Object.entries(flags).map(([name, flag]) => {
    const notes = [
      flag.required ? 'required' : '',
      flag.default !== undefined ? `default: ${shownDefault(flag)}` : '',
    ].filter(Boolean);
    return [flagUsage(name, flag), notes.length ? `${flag.description} (${notes.join('; ')})` : flag.description];
  });
}

function commandList(node: CommandNode): string {
  return table(commandsUnder(node).map((command) => [command.path.join(' '), command.spec.description]));
}

/** Help for the program, or for a group such as `job`. */
export function groupHelp(program: ProgramIdentity, node: CommandNode): string {
  const prefix = [program.name, ...node.path].join(' ');
  return [
    node.path.length ? `${prefix}: commands` : `${program.name} ${program.version}: ${program.description}`,
    '',
    `Usage: ${prefix} <command> [flags]`,
    '',
    'Commands:',
    commandList(node),
    '',
    'Global flags (before or after the command):',
    table(flagRows(GLOBAL_FLAGS)),
    '',
    `Run "${program.name} help <command>" (or "${program.name} <command> --help") for a command's arguments,`,
    'flags and exit codes.',
    '',
  ].join('\n');
}

/** The command's words as typed: `stint analyze <files...> [flags]`, or `stint follow [flags] -- <command...>`. */
export function usageLine(program: ProgramIdentity, command: RegisteredCommand): string {
  const words = (command.spec.positionals ?? []).map((p) => {
    const inner = p.variadic ? `${p.name}...` : p.name;
    const word = p.required === false ? `[${inner}]` : `<${inner}>`;
    return p.afterTerminator ? `[flags] -- ${word}` : word;
  });
  const last = command.spec.positionals?.at(-1);
  return [program.name, ...command.path, ...words, ...(last?.afterTerminator ? [] : ['[flags]'])].join(' ');
}

/** Help for one command: usage, arguments, flags and its exit codes. */
export function commandHelp(program: ProgramIdentity, command: RegisteredCommand): string {
  const spec = command.spec;
  const positionals = spec.positionals ?? [];
  const lines = [
    `Usage: ${usageLine(program, command)}`,
    '',
    spec.description,
    '',
  ];
  if (positionals.length) {
    lines.push('Arguments:', table(positionals.map((p) => [p.variadic ? `${p.name}...` : p.name, p.description])), '');
  }
  const flags = flagRows(command.flags);
  if (flags.length) lines.push('Flags:', table(flags), '');
  if (spec.interruption) {
    const modes = [
      spec.interruption.detach ? 'continues in a background job' : '',
      spec.interruption.resume ? 'resumes from its checkpoint' : '',
    ]
      .filter(Boolean)
      .join(' and ');
    lines.push(`When its budget runs out the work ${modes}; the call exits 14 with the command that continues it.`, '');
  }
  if (spec.streaming) {
    lines.push(
      'Answers as a stream: one JSON object a line (items numbered _seq), ending on exactly one terminal line,',
      'a _summary (exit 0) or an error envelope; --no-stream gives one envelope instead.',
      '',
    );
  }
  lines.push(
    'Exit codes:',
    table(Object.entries(command.exitCodes).map(([code, entry]) => [
      `${code.padStart(3)} ${entry.name ?? ''}`,
      entry.description,
    ])),
    '',
  );
  for (const example of spec.examples ?? []) lines.push(`Example: ${example.description}`, `  ${example.command}`, '');
  return lines.join('\n');
}
