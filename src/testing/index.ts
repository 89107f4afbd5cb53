// stint/testing: the checks an author's own sink must pass, as stint's own do.
export {
  sinkConformance, type ConformanceCase, type OpenedSink, type SinkSubject,
} from './sink-conformance.js';
export {
  commitSeries, seriesCommit, decodeSuiteMark, encodeSuiteMark, POISON_VALUE,
  type SuiteReject, type SuiteRow, type SuiteState,
} from './suite-state.js';
