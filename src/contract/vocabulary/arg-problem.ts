/** What was wrong with one argument (FieldError.reason of an ARG_ERROR). */
export const ArgProblem = {
  MissingCommand: 'missing_command',
  UnknownCommand: 'unknown_command',
  UnknownFlag: 'unknown_flag',
  MissingValue: 'missing_value',
  MalformedValue: 'malformed_value',
  ConflictingValue: 'conflicting_value',
  MissingFlag: 'missing_flag',
  MissingArgument: 'missing_argument',
  UnexpectedArgument: 'unexpected_argument',
} as const;
export type ArgProblem = (typeof ArgProblem)[keyof typeof ArgProblem];
