// A torchrun job's ranks as table rows for the report panel: the digest of each rank, its steady time per step
// where every rank measured the same regions, whether it took part in a divergence; slowest first when timed.
import { digestRank, type RankDigest } from './rankDigest.ts';
import type { Report } from '../shared/report.ts';

export interface RankTableRow {
  digest: RankDigest;
  /** the sum of its regions' steady-state ms per call; null unless every rank has a steady state for the same regions */
  stepMs: number | null;
  /** stepMs over the fastest rank's, as a share (0.12 = 12 % slower); null without step times */
  overFastest: number | null;
  /** named by a divergence (an error: the ranks ran different code) */
  diverged: boolean;
}

export interface RankTable {
  rows: RankTableRow[];
  /** rows are slowest first (step times known), else in rank order */
  bySteps: boolean;
}

export function rankTable(report: Report): RankTable {
  const digests = (report.ranks ?? []).map(digestRank);
  const diverged = new Set(
    (report.divergence ?? []).filter((d) => (d.severity ?? 'error') === 'error').flatMap((d) => d.ranks),
  );
  const regionKey = (d: RankDigest): string =>
    d.regions
      .map((r) => r.id)
      .sort()
      .join(',');
  const [firstDigest] = digests;
  const comparable =
    firstDigest !== undefined &&
    digests.every(
      (d) =>
        d.regions.length > 0 && d.regions.every((r) => r.steadyMs !== null) && regionKey(d) === regionKey(firstDigest),
    );
  const stepped = digests.map((digest) => ({
    digest,
    stepMs: comparable ? digest.regions.reduce((sum, r) => sum + r.steadyMs!, 0) : null,
  }));
  const fastest = comparable ? Math.min(...stepped.map((s) => s.stepMs!)) : null;
  const rows = stepped.map(({ digest, stepMs }) => ({
    digest,
    stepMs,
    overFastest: stepMs !== null && fastest !== null && fastest > 0 ? stepMs / fastest - 1 : null,
    diverged: diverged.has(digest.rank),
  }));
  rows.sort((a, b) => (comparable ? b.stepMs! - a.stepMs! : 0) || a.digest.rank - b.digest.rank);
  return { rows, bySteps: comparable };
}
