import type { RegisteredCommand } from '../authoring/define-command.js';

/** Commands by path word: `job` → `wait` → the job wait command. */
export interface CommandNode {
  readonly path: readonly string[];
  readonly children: Map<string, CommandNode>;
  command?: RegisteredCommand;
}

export function buildCommandTree(commands: readonly RegisteredCommand[]): CommandNode {
  const root: CommandNode = { path: [], children: new Map() };
  for (const command of commands) {
    let node = root;
    for (const word of command.path) {
      let child = node.children.get(word);
      if (!child) {
        child = { path: [...node.path, word], children: new Map() };
        node.children.set(word, child);
      }
      node = child;
    }
    node.command = command;
  }
  return root;
}

/** Every command below a node, in path order. */
export function commandsUnder(node: CommandNode): RegisteredCommand[] {
  const found: RegisteredCommand[] = node.command ? [node.command] : [];
  for (const child of [...node.children.values()].sort((a, b) => a.path.join(' ').localeCompare(b.path.join(' ')))) {
    found.push(...commandsUnder(child));
  }
  return found;
}
