/**
 * Which limit stopped a run. Every limit stop names one; every other status
 * leaves it empty. The spellings are fixed (a unit test pins them) so that
 * hosts branching on these strings agree across ports.
 */
export const StopLimit = {
  MaxTurns: 'maxTurns',
  MaxTokens: 'maxTokens',
  MaxToolCalls: 'maxToolCalls',
  MaxWallMs: 'maxWallMs',
  MaxChildren: 'maxChildren',
  MaxConcurrent: 'maxConcurrent',
  MaxDepth: 'maxDepth',
  Completion: 'completion',
  Timeout: 'timeout',
} as const;
export type StopLimit = (typeof StopLimit)[keyof typeof StopLimit];
