// `analyze --stats basic` (or a list): which statistics each column shows, and so which of the costly ones the
// chunks compute (sketchesFor): plain aggregates cost plain aggregates' time. Without
// `--stats`, a file of more than WIDE_COLUMNS columns shown gets the basic ones: an agent asking about a wide
// file is not handed tens of kilobytes it did not ask for, and the answer names what it holds.
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { membersOf } from '../../contract/vocabulary/closed-set.js';
import { didYouMean, likelyMeant } from '../../runtime/cli/suggest.js';
import type { ColumnSummary } from './map/column-stats.js';
import { EVERY_SKETCH, Sketch } from './map/stats/sketch.js';

/** The statistics `--stats` names, each with the fields it brings (an estimate's error beside its figure). */
export const Stat = {
  Count: 'count',
  Nulls: 'nulls',
  Min: 'min',
  Max: 'max',
  Sum: 'sum',
  Mean: 'mean',
  Lengths: 'lengths',
  Stddev: 'stddev',
  Quartiles: 'quartiles',
  Distinct: 'distinct',
  TopValues: 'top_values',
} as const;
export type Stat = (typeof Stat)[keyof typeof Stat];

/** Names for sets of statistics: `all` is the default. */
export const StatsPreset = { Basic: 'basic', All: 'all' } as const;

const FIELDS: Readonly<Record<Stat, readonly (keyof ColumnSummary)[]>> = {
  [Stat.Count]: ['count'],
  [Stat.Nulls]: ['nulls', 'null_percentage'],
  [Stat.Min]: ['min', 'min_exact'],
  [Stat.Max]: ['max', 'max_exact'],
  [Stat.Sum]: ['sum', 'sum_exact'],
  [Stat.Mean]: ['mean'],
  [Stat.Lengths]: ['min_length', 'max_length'],
  [Stat.Stddev]: ['stddev', 'variance'],
  [Stat.Quartiles]: ['q25', 'q50', 'q75', 'quartile_rank_error'],
  [Stat.Distinct]: ['distinct', 'distinct_exact', 'distinct_relative_error'],
  [Stat.TopValues]: ['top_values', 'top_values_exact', 'top_values_error', 'top_values_below_error'],
};

export const BASIC: readonly Stat[] = [Stat.Count, Stat.Nulls, Stat.Min, Stat.Max, Stat.Sum, Stat.Mean];

/** Past this many columns shown, an answer without `--stats` holds the basic statistics. */
export const WIDE_COLUMNS = 32;

/** What `--stats` asked for: some statistics, every one (`all`), or nothing said (the default). */
export type StatsAsked = readonly Stat[] | typeof StatsPreset.All | undefined;

const NAMES: readonly string[] = [...membersOf(StatsPreset), ...membersOf(Stat)];

function unknownStat(name: string, flag: string): StintError {
  const near = likelyMeant(name, NAMES);
  return new StintError(ErrorCode.ArgError, `--stats names ${name}, which is not a statistic`, {
    phase: 'validation',
    suggestion: near.length > 0 ? didYouMean(near) : `--stats takes basic, all, or a list of: ${NAMES.join(', ')}`,
    context: { flag: '--stats', value: flag },
  });
}

/** The statistics `--stats` names, in the order of `Stat`; `all` for every one; undefined when it is not given. */
export function statsWanted(flag: string | undefined): StatsAsked {
  if (flag === undefined) return undefined;
  const names = flag.split(',').map((name) => name.trim()).filter((name) => name !== '');
  if (names.length === 0) throw unknownStat('nothing', flag);
  const stats = new Set<Stat>();
  for (const name of names) {
    if (name === StatsPreset.All) return StatsPreset.All;
    if (name === StatsPreset.Basic) BASIC.forEach((stat) => stats.add(stat));
    else if ((membersOf(Stat) as readonly string[]).includes(name)) stats.add(name as Stat);
    else throw unknownStat(name, flag);
  }
  return membersOf(Stat).filter((stat) => stats.has(stat));
}

/** The statistics a file's answer shows, given how many columns it shows; undefined for every one. */
export function statsShown(asked: StatsAsked, columns: number): readonly Stat[] | undefined {
  if (asked === StatsPreset.All) return undefined;
  return asked ?? (columns > WIDE_COLUMNS ? BASIC : undefined);
}

/** The column with only the fields of the statistics wanted (its name and type always). */
export function pickStats(column: ColumnSummary, stats: readonly Stat[] | undefined): ColumnSummary {
  if (stats === undefined) return column;
  const wanted = new Set<string>(['name', 'type', ...stats.flatMap((stat) => FIELDS[stat])]);
  return Object.fromEntries(Object.entries(column).filter(([field]) => wanted.has(field))) as unknown as ColumnSummary;
}

/** The added statistics the chunks must compute for an answer showing `stats` (undefined: every one). */
export function sketchesFor(stats: readonly Stat[] | undefined): number {
  if (stats === undefined) return EVERY_SKETCH;
  const spread = stats.includes(Stat.Stddev) || stats.includes(Stat.Quartiles);
  const values = stats.includes(Stat.Distinct) || stats.includes(Stat.TopValues);
  return (spread ? Sketch.Spread : 0) | (values ? Sketch.Values : 0);
}
