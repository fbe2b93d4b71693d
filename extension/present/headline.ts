// The one-line answers (schema 1.18): the run's headline and each region's, written by the runner
// (native-runner/compile_lens_runner/report/headline.py) and shown as they are by the CodeLens, the Runs view, --json and
// the extension's log, so every surface says the same words. Reports before 1.18 have none: the runner's own verdict
// sentence stands in (it says the answer too, in more words), never a line composed here.
import type { Region, Report } from '../shared/report.ts';

export const runHeadline = (report: Report): string => report.headline ?? report.recommendation.reason;

export const regionHeadline = (region: Region): string =>
  region.headline ??
  region.noCompiledCode?.headline ??
  region.recommendation?.reason ??
  region.replay.reason ??
  'no headline: profiled before schema 1.18';
