export * from './model.ts';
export { openMrf } from './read/index.ts';
export {
  ingestFile,
  INTERRUPTED_RUN,
  liveRuns,
  markInterruptedRuns,
  type IngestResult,
} from './load/ingest-file.ts';
export { isEmpty, loadDemoData, type DemoLoadResult } from './load/demo-data.ts';
export { storedSummary, summaryLines, ValidationReport } from './validate/report.ts';
export { hospitalLocator, loadStates } from './load/reference-loader.ts';
export { refreshSummary } from './load/ingest-notes.ts';
export { refreshSourcesInUse, type SourcesResult } from './load/sources.ts';
export { sourcesInUse } from './load/refresh.ts';
export { stillThere } from './read/source.ts';
export { ProgressBar } from './cli/progress.ts';
