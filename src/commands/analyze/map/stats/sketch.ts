// Which of the added statistics (column-extras.ts) a chunk computes, a bit each: those its answer shows
// (`analyze --stats`), so a caller who asks for plain aggregates does not pay for the sketches. The range of
// dates is always kept, since a column's type depends on it; a statistic not kept stays empty.
export const Sketch = { Spread: 1, Values: 2 } as const;
export const EVERY_SKETCH = Sketch.Spread | Sketch.Values;
