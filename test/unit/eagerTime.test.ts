// One eager time per measurement: the CLI, the report panel and --json give eager's time per call only as the one
// each mode's speedup rests on (timed in that mode's pairs), never also eager timed alone before compiling.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { reportJson, reportText } from '../../extension/cli/main.ts';
import { formatMs } from '../../extension/present/numbers.ts';
import { digestReport, modeCells } from '../../extension/present/reportDigest.ts';
import { loadReport } from '../../extension/node/reportFile.ts';

const FIXTURES = path.resolve(__dirname, '../fixtures/reports');

for (const name of ['graphbreak-cpu', 'recompile-cpu', 'fused-cpu']) {
  test(`${name}: eager's time per call is each mode's paired eager, said once per mode on the CLI, the panel and --json`, async () => {
    const { report } = await loadReport(path.join(FIXTURES, name, 'report.json'));
    assert.ok(report.eager.timing, 'the fixture timed eager alone too');
    const digest = digestReport(report);
    const paired = digest.modes.flatMap((m) => (m.pairedEagerMs === null ? [] : [formatMs(m.pairedEagerMs)]));
    assert.ok(paired.length > 0, 'a mode was measured');
    const panel = [modeCells(null, digest), ...digest.modes.map((m) => modeCells(m, digest))]
      .map((cells) => Object.values(cells).join(' | '))
      .join('\n');
    for (const [surface, text] of [
      ['cli', reportText(report)],
      ['panel', panel],
    ] as const) {
      const eagerTimes = [...text.matchAll(/(?:vs eager|\(eager) (\d[\d,.]* (?:ms|µs|s))/g)].map((m) => m[1]);
      assert.deepEqual(eagerTimes, paired, `${surface}: ${text}`);
      assert.doesNotMatch(text, /timed alone/, surface);
    }
    assert.equal(modeCells(null, digest).perCall, '', "eager's row: no time of its own, each mode's row says it");
    const json = reportJson(report) as Record<string, unknown> & { modes: { pairedEagerMs: number | null }[] };
    assert.ok(!('eagerMs' in json), '--json has no eager timed alone');
    assert.deepEqual(
      json.modes.map((m) => m.pairedEagerMs),
      digest.modes.map((m) => m.pairedEagerMs),
    );
  });
}

test("every fixture report: a mode's per-call times, compiled and eager, give the speedup beside them", async () => {
  const reports = readdirSync(FIXTURES).filter((name) => existsSync(path.join(FIXTURES, name, 'report.json')));
  let checked = 0;
  for (const name of reports) {
    const { report } = await loadReport(path.join(FIXTURES, name, 'report.json'));
    for (const m of digestReport(report).modes) {
      if (m.speedup === null || m.medianMs === null || m.pairedEagerMs === null) continue;
      // fused-cpu's first recording, by an older estimator, read 0.53× beside 9.34 ms against eager's 6.88 ms (0.74×)
      const shown = m.pairedEagerMs / m.medianMs;
      assert.ok(Math.abs(shown / m.speedup - 1) < 0.01, `${name} ${m.mode}: ${m.speedup}× beside ${shown.toFixed(3)}×`);
      checked++;
    }
  }
  assert.ok(checked >= 3, `${checked} modes checked`);
});
