// In situ in words (schema 1.14): the CLI block leads with the script's own steps both ways, the CodeLens says the
// step speedup, the compiled warm-up's cost beyond eager steps and the answer's pay-back against the steps this run made, and a failed
// compiled call is said at the user's line. Fixtures are real CPU runs (paths rewritten).
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { digestInSitu, wallLine } from '../../extension/present/inSituDigest.ts';
import { digestRegion, formatScriptDigest } from '../../extension/present/regionDigest.ts';
import { regionStory } from '../../extension/present/regionStory.ts';
import type { Region, Report } from '../../extension/shared/report.ts';
import { loadReport } from '../../extension/node/reportFile.ts';

/** A region without its answer: read as a report made before answers (its numbers changed here, not the runner's). */
const unanswered = ({ answer: _, ...region }: Region): Region => region;

const fixture = async (name: string): Promise<Report> =>
  (await loadReport(path.resolve(__dirname, '../fixtures/reports', name, 'report.json'))).report;

test("a 40-call script: the lens says the steps' number, its range holding a CPU's next process, and no verdict", async () => {
  const report = await fixture('script-in-situ-cpu');
  const region = report.regions![0]!;
  const digest = digestRegion(region);
  // the runner's line (report/answer.py, test_answer.py), shown as it wrote it: the steps are faster by their value,
  // not by their range (not clearly faster), and so is the replay (1.19×, 1.01–1.37×): one rule, no verdict
  assert.equal(digest.headline, 'no verdict: 1.22× per step in situ (0.87–1.41×) · not clearly faster · 1 graph');
  assert.equal(digest.headline, region.headline);
});

test("a report of the separate runs reads in the words of an interleaved one (the runner's lines, re-derived), the replay labelled, the whole script both ways", async () => {
  const report = await fixture('script-in-situ-cpu');
  const lines = formatScriptDigest(report).split('\n');
  const first = lines.indexOf(
    '    in situ (2 pairs of whole runs of the script, eager and compiled): eager 0.862 ms → compiled 0.704 ms per step',
  );
  // the per-call number on a line of its own, said as the evidence it is (review H4)
  assert.equal(
    lines[first + 1],
    "      the region's calls alone, without the rest of each step's work (evidence, not the answer): 1.22× per call in situ (0.88–1.40×), eager 0.856 ms → compiled 0.701 ms per call",
  );
  const replay = lines.findIndex((l) =>
    l.trimStart().startsWith("replay (evidence, not the answer): torch.compile's defaults (as written)"),
  );
  assert.ok(first > 0 && replay > first, lines.join('\n'));
  assert.ok(!lines.some((l) => l.includes('separate-runs')), lines.join('\n'));
  // no break-even here: no verdict (no pay-back to say), and the warm-up's 3.1 s would be a second
  // compile time beside the facts' 6.50 s (issue 44)
  assert.ok(!lines.some((l) => l.includes('warm-up')), lines.join('\n'));
  assert.ok(!lines.some((l) => /break-even: |pays back after about 19,000/.test(l)), lines.join('\n'));
  // the compile inside the script's own calls, one value: the region's facts (the runner's, schema 1.32)
  assert.ok(lines.some((l) => l.includes("6.50 s compiling in the script's own calls")));
  assert.ok(lines.includes('  whole script, fastest of 2 runs each: as written 5.45 s · compiling off 694 ms'));
  // where the in-situ calls begin, their times the in-situ line's alone (issue 44)
  assert.match(
    regionStory(report.regions![0]!)!,
    /From call 1 on, the script's own calls took turns in blocks, compiled and with compiling off, for the in-situ number\./,
  );
  // a report before the lines (not re-derived): its in-situ fields listed, the number in the answer's words
  const { lines: _said, ...fields } = report.regions![0]!.inSitu!;
  assert.equal(
    digestInSitu({ ...report.regions![0]!, inSitu: fields })!.lines[1],
    '  per step: 1.22× per step in situ (0.87–1.41×) · eager 0.862 ms · compiled 0.704 ms',
  );
});

test("the whole script's line is the runner's (schema 1.29), and a report before it gets the same words from its times", async () => {
  let said = 0;
  for (const name of ['script-in-situ-cpu', 'script-in-situ-failure-cpu']) {
    const report = await fixture(name);
    const { wallText, ...before } = report.inSitu!;
    assert.ok(wallText, name);
    assert.equal(wallLine(report), wallText, name);
    assert.equal(wallLine({ ...report, inSitu: before }), wallText, name);
    said++;
  }
  assert.equal(said, 2);
});

test("the runner's lines (schema 1.24) are the CLI block's, word for word, indented", async () => {
  const report = await fixture('script-shapes-cpu');
  const text = formatScriptDigest(report);
  // a region whose only in-situ words are the reason its answer's sentence says (r2) has no lines: said once
  assert.ok(report.regions!.filter((r) => r.inSitu!.lines!.length).length >= 2);
  for (const region of report.regions!) {
    const lines = region.inSitu!.lines!;
    assert.deepEqual(digestInSitu(region)!.lines, lines);
    assert.ok(text.includes(lines.map((l) => `    ${l}`).join('\n')), `${region.id}:\n${text}`);
  }
});

test('a compiled call that failed: at its line with the fix, in the lens, the CLI and the verdict; no other modes', async () => {
  const report = await fixture('script-in-situ-failure-cpu');
  const region = report.regions![0]!;
  const digest = digestInSitu(region)!;
  assert.deepEqual(
    [digest.failure!.what, digest.failure!.line, digest.failure!.call],
    ["a branch on a tensor's value (`if y.sum() > 0:`): which way it goes is known only when the call runs", 8, 3],
  );
  assert.ok(
    digestRegion(region).headline.startsWith('compiled call 3 fails at fails_at_serving.py:8 · measured before it: '),
  );
  // the runner's lines (the separate runs re-derived): the failure first, at the user's line, with its fix
  assert.match(
    digest.lines[0]!,
    /^in situ: compiled call 3 failed at fails_at_serving\.py:8: a branch .*\. Fix: make it branchless with torch\.where/,
  );
  assert.notEqual(report.recommendation.verdict, 'compile');
  assert.match(
    report.recommendation.reason,
    /^serve \(line 4\): Fix first: compiled call 3 failed at fails_at_serving\.py:8/,
  );
  assert.doesNotMatch(formatScriptDigest(report), /other modes|another mode/i);
});

test("no steady step: the region's time both ways, never a made-up speedup", async () => {
  const region = (await fixture('script-in-situ-cpu')).regions![0]!;
  const twoCalls: Region = {
    ...unanswered(region), // in-situ numbers other than its answer's: read as a report made before answers
    inSitu: {
      pairs: 1,
      step: null,
      call: null,
      reason: "every one of the script's 2 call(s) compiled",
      regionSeconds: { compiled: 3.9, eager: 0.0016 },
      stepsMade: 2,
    },
  };
  const digest = digestInSitu(twoCalls)!;
  assert.ok(
    digest.lines.includes("  no step speedup: every one of the script's 2 call(s) compiled"),
    digest.lines.join('\n'),
  );
  // compile-inclusive totals are no comparison: never said as one, nor a speedup
  assert.doesNotMatch(digest.lines.join('\n'), /compiled vs|compiles included|×/);
  assert.equal(digestInSitu({ ...region, inSitu: null }), null);
});

test('steady calls but no steady step (another region compiles in every step): the per-call number, and why there is no step', async () => {
  const region = (await fixture('script-in-situ-cpu')).regions![0]!;
  const { lines: _said, ...fields } = region.inSitu!; // a report before the runner's lines: its fields listed
  const callOnly: Region = {
    ...unanswered(region),
    inSitu: {
      ...fields,
      step: null,
      reason:
        "something compiled in every step after the region's warm-up (another region's compiles): no step without compiling",
    },
  };
  const digest = digestInSitu(callOnly)!;
  assert.ok(
    digest.lines.includes('  per call: 1.22× (0.88–1.40×) · eager 0.856 ms · compiled 0.701 ms'),
    digest.lines.join('\n'),
  );
  assert.ok(digest.lines.every((l) => !l.startsWith('  per step')));
  assert.ok(digest.lines.some((l) => l.startsWith('  no step speedup: something compiled in every step')));
});

test("a report before the lines: an in-situ number's times are said at the digits where they divide to its speedup (review 15U U1)", async () => {
  const region = unanswered((await fixture('script-in-situ-cpu')).regions![0]!);
  const { lines: _said, ...fields } = region.inSitu!;
  // 9.65 µs over 13.7 µs is 0.704: "0.70×" beside the "0.71×" it is the ratio of
  const step = {
    ...fields.step!,
    speedup: 0.7053,
    low: 0.6,
    high: 0.81,
    eagerMs: 0.0096523730468423,
    compiledMs: 0.013684785156620194,
  };
  assert.equal(
    digestInSitu({ ...region, inSitu: { ...fields, step } })!.lines[1],
    '  per step: 0.71× (0.60–0.81×) · eager 9.652 µs · compiled 13.68 µs',
  );
});
