// "Compare with…" in the Runs view: two reports side by side, the breaks and recompiles gone and added.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { compareRuns, compareTitle } from '../../extension/present/runCompare.ts';
import type { Report } from '../../extension/shared/report.ts';
import { loadReport } from '../../extension/node/reportFile.ts';

const fixture = async (name: string): Promise<Report> =>
  (await loadReport(path.resolve(__dirname, '../fixtures/reports', name, 'report.json'))).report;

test("two target runs: each mode's speedup, time per call and kernels per step side by side; breaks and recompiles gone and added", async () => {
  const [graphbreak, recompile] = [await fixture('graphbreak-cpu'), await fixture('recompile-cpu')];
  const text = compareRuns(graphbreak, recompile);
  // a heading of the file alone, each run's time on its own line (report3B M13: a 4-line heading in a narrow column)
  assert.match(text, /^# mlp\.py\n\nbefore, 2026-11-22 \d\d:21:00: .*\nafter, 2026-11-22 \d\d:17:26: /);
  // the tab says what it compares, named as the runs' tabs name them (the runner's target.displayName), at the times they say (report3B
  // M13: "Preview Untitled-1")
  assert.match(
    compareTitle(graphbreak, recompile, new Date(recompile.createdAt)),
    /^Compile Lens: compare recompile \d\d:21:00 → \d\d:17:26$/,
  );
  // the runner's words for each mode's number (report/sentences.py)
  assert.match(
    text,
    /^\| speedup \| 1\.30× per call with default \\\(1\.05–1\.49×\\\) \| 0\.78× per call with default \\\(0\.66–0\.90×\\\) \|$/m,
  );
  assert.match(text, /^\| kernels \/ step \| 15 → 12 \| 3 → 3 \|$/m);
  assert.match(text, /^\| graph breaks \| 3 \| 0 \|$/m);
  assert.match(text, /^\| recompiles \| 2 \| 1 \|$/m);
  const gone = text.slice(text.indexOf('Gone (5):'), text.indexOf('Added'));
  assert.equal(gone.match(/^- graph break at graphbreak\.py:/gm)?.length, 3);
  assert.equal(gone.match(/^- recompile at graphbreak\.py:24/gm)?.length, 2);
  assert.match(text, /Added \(1\):\n- recompile at mlp\.py:13: Input 'x' changed size in dimension 0 from 32 to 64/);
});

test('two script runs: regions matched by name and line, one only in the earlier run; the same sites said once', async () => {
  // a real run of train_small.py (test/fixtures/recorded/README.md), and the same run without its step region
  const before = (await loadReport(path.resolve(__dirname, '../fixtures/recorded/train_small-cpu/report.json'))).report;
  const after: Report = {
    ...before,
    createdAt: '2026-11-29T11:00:00+00:00',
    regions: before.regions!.filter((r) => r.name !== 'step'),
  };
  const text = compareRuns(before, after);
  assert.match(
    text,
    /### TinyTransformer \\\(line 37\\\)\n\n\| \| before \| after \|\n\|---\|---\|---\|\n\| speedup \| too noisy to say, 2\.64× per call replayed .* \| too noisy to say, 2\.64× per call replayed .* \|\n/,
  );
  // the region's speedup cell is its headline (no number: the runner's one line), as the markdown escapes it
  const step = before.regions!.find((r) => r.name === 'step')!.headline!.replace(/[()+]/g, '\\$&');
  assert.ok(
    text.includes(
      `### step \\(line 40\\)\n\n| | before | after |\n|---|---|---|\n| speedup | ${step} | not in this run |`,
    ),
    text,
  );
  assert.match(text, /The same \d+ sites in both runs\./);
});
