// One eager time per measurement: the CLI, the report panel and --json give eager's time per call only as the one
// each mode's speedup rests on (timed in that mode's pairs), never also eager timed alone before compiling.
import assert from 'node:assert/strict';
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
      const eagerTimes = [...text.matchAll(/(?:vs eager|\(eager) (\d[\d,.]* ms)/g)].map((m) => m[1]);
      assert.deepEqual(eagerTimes, paired, `${surface}: ${text}`);
      assert.doesNotMatch(text, /timed alone/, surface);
    }
    assert.equal(modeCells(null, digest).perCall, 'timed with each mode');
    const json = reportJson(report) as Record<string, unknown> & { modes: { pairedEagerMs: number | null }[] };
    assert.ok(!('eagerMs' in json), '--json has no eager timed alone');
    assert.deepEqual(
      json.modes.map((m) => m.pairedEagerMs),
      digest.modes.map((m) => m.pairedEagerMs),
    );
  });
}
