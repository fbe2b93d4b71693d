// The in-situ parts of a script report in the webview (headless Chromium, real CSP; real runs' reports, recorded:
// test/fixtures/recorded/README.md): the calls chart's compiling-off calls, the in-situ step chart and its steady
// state, the runner's in-situ lines as the panel's paragraph, and one steady state per region.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { loadReport } from '../../extension/node/reportFile.ts';
import { errorsOf, holdBrowser } from './harness.ts';
import { marks, openReport as openPanel, readReport, reportPath } from './reportPanelPages.ts';

const SERVE = 'recorded/serve_script-cpu';
const browser = holdBrowser();
const openReport = (name: string): Promise<Page> => openPanel(browser(), name);

describe('in situ in the report panel', () => {
  test("the calls chart draws in situ's compiling-off calls as the step chart names them, never as compiled code reused nor as Dynamo's fallback", async () => {
    const calls = readReport(SERVE).regions![0]!.calls;
    const eagerSide = calls.filter((c) => c.side === 'eager').map((c) => c.index);
    assert.ok(eagerSide.length > 10, 'the recording has compiling-off blocks');
    const page = await openReport(SERVE);
    const drawn = await marks(page, 'r0');
    assert.deepEqual(
      drawn.filter((m) => eagerSide.includes(m.call) !== (m.mark === 'switched-off')).map((m) => [m.call, m.mark]),
      [],
    );
    // one name for them on both charts (review 6B Q: "ran eagerly" here, "compiling off (eager)" on the step chart,
    // and "ran eagerly" again where Dynamo gave up after the recompile limit)
    const legends = (chart: string): Promise<string[]> =>
      page.locator(`section.region[data-region="r0"] .region-chart:has(svg.${chart}) .legend-entry`).allInnerTexts();
    assert.ok((await legends('in-situ')).includes('compiling off (eager)'), (await legends('in-situ')).join(', '));
    assert.deepEqual(
      (await legends('first-calls')).filter((l) => l.includes('eager')),
      ['compiling off (eager)'],
    );
    await page.close();
  });

  test("both sides' steps overlaid per region, the steady state shaded with both medians, the numbers above it", async () => {
    // serve_script.py measured in situ by turns (eager and compiled blocks in one run)
    const situ = readReport(SERVE).regions![0]!.inSitu!;
    const page = await openReport(SERVE);
    const box = page.locator('section.region[data-region="r0"]');
    assert.match(
      situ.lines![0]!,
      // its number and "too noisy to say" are the answer's sentence's, said once there (review 4C X3): times here
      // (its 21-209 ms steps the host took are left out both ways, s29: 5 pairs keep steady steps)
      /^in situ \(the middle of 5 pairs of adjacent eager\/compiled blocks in this run, one signature\): eager 0\.602 ms → compiled 0\.471 ms per step/,
    );
    // an indented line is an item under the line above it (its indent the list's)
    assert.equal(await box.locator('.in-situ-lines').innerText(), situ.lines!.map((l) => l.trimStart()).join('\n'));
    const overlay = box.locator('svg.in-situ');
    const runs = await overlay
      .locator('path.run')
      .evaluateAll((nodes) =>
        nodes.map((n) => [
          (n as SVGElement).dataset['side'],
          Number((n as SVGElement).dataset['steps']),
          (n.getAttribute('d') ?? '').length > 0,
        ]),
      );
    // every step with a time: the compiled side's last step (call 63) never ended, so it has none
    assert.deepEqual(runs, [
      ['eager', 32, true],
      ['compiled', 31, true],
    ]);
    // the shaded steady state in the runner's words (the panel composed "steady state from call 3" itself)
    assert.equal(situ.steadyText, 'steady state from call 3: the steps the in-situ number counted');
    const shades = await overlay.locator('rect.steady > title').allTextContents();
    assert.ok(shades.length > 0 && shades.every((title) => title === situ.steadyText), shades.join(' | '));
    // each side's time and the compile step say what the runner wrote for them (schema 1.25, report/chart_text.py;
    // session 33: the middle pair of blocks')
    assert.deepEqual(await overlay.locator('line.steady-median > title').allTextContents(), [
      'as written (compiled): 0.471 ms per step, the middle of 5 pairs of blocks',
      'compiling off (eager): 0.602 ms per step, the middle of 5 pairs of blocks',
    ]);
    // the compile step: the compiled side's step 0 marked, far above the rest (log scale)
    assert.equal(await overlay.locator('circle.situ-mark.compiled').count(), 1);
    assert.equal(
      await overlay.locator('circle.situ-mark.compiled > title').textContent(),
      "step 0: 3.82 s, compiled 1 time; left out of the steady state: a step in Compile Lens's compiled warm-up",
    );
    assert.equal(await overlay.getAttribute('data-scale'), 'log');
    // a log axis labels whole decades only: d3's 2, 3, … 9 labels printed over each other in this short chart
    const labels = await overlay.locator('.y-axis .tick text').allTextContents();
    assert.ok(labels.length >= 2 && labels.length <= 6, `y labels: ${labels.join(' | ')}`);
    assert.ok(
      labels.every((l) => /^(1|10|100)(\.0+)? (ms|s)$|^1\.0+ s$|^0\.(1|01|001)0* (ms|s)$/.test(l)),
      `y labels are decades: ${labels.join(' | ')}`,
    );
    assert.deepEqual(errorsOf(page), []);
  });

  test('one steady state per region: the steps shaded are the ones the number counted, one median in words and lines', async () => {
    // review 3C N2: the overlay shaded every step from call 3, the 100-200 ms steps the lines leave out among them;
    // review 3B M1: the story's "from call 3 … 0.536 ms" beside the call chart's band from call 20 at 0.48 ms
    const region = readReport(SERVE).regions![0]!;
    const situ = region.inSitu!;
    const page = await openReport(SERVE);
    const box = page.locator('section.region[data-region="r0"]');
    const shaded = await box
      .locator('svg.in-situ rect.steady')
      .evaluateAll((nodes) =>
        nodes.map((n) => [Number((n as SVGElement).dataset['from']), Number((n as SVGElement).dataset['to'])]),
      );
    const left = situ.stepPoints!.filter((p) => !p.counted);
    assert.ok(left.length > 10 && shaded.length > 1, 'the recording has steps left out inside its steady state');
    for (const p of left)
      assert.ok(!shaded.some(([from, to]) => from! <= p.index && p.index <= to!), `step ${p.index} is shaded`);
    for (const p of situ.stepPoints!.filter((p) => p.counted))
      assert.ok(
        shaded.some(([from, to]) => from! <= p.index && p.index <= to!),
        `step ${p.index} is not shaded`,
      );
    // each left-out step drawn hollow, its reason in the runner's words (the compile step's under its compile mark)
    const hollow = (
      await box
        .locator('svg.in-situ circle.situ-point.left-out')
        .evaluateAll((nodes) =>
          nodes.map((n) => [Number((n as SVGElement).dataset['call']), n.querySelector('title')?.textContent]),
        )
    ).sort((a, b) => (a[0] as number) - (b[0] as number));
    const compiled = new Set(
      [...situ.series!.compiled, ...situ.series!.eager].filter((p) => p[2] > 0).map((p) => p[3]!),
    );
    assert.deepEqual(
      hollow,
      left
        .filter((p) => !compiled.has(p.index))
        .sort((a, b) => a.index - b.index)
        .map((p) => [p.index, p.text]),
    );
    // review s29: the call chart shades the same calls, not one band from call 3 over the eager blocks and the steps
    // left out; its tooltip says so in the runner's words
    const callShades = box.locator('svg.first-calls rect.steady');
    assert.deepEqual(
      await callShades.evaluateAll((nodes) =>
        nodes.map((n) => [Number((n as SVGElement).dataset['from']), Number((n as SVGElement).dataset['to'])]),
      ),
      shaded,
    );
    assert.deepEqual(new Set(await callShades.locator('title').allTextContents()), new Set([region.steadyState!.said]));
    // the call chart's steady state is the story's start, and its median line at the in-situ line's median (the
    // story says where those calls begin, not their times again: issue 44)
    const steady = region.steadyState!;
    assert.equal(steady.fromCall, situ.steadyFromCall);
    const median = Number(await box.locator('svg.first-calls line.steady-median').getAttribute('data-ms'));
    assert.equal(median, situ.call!.compiledMs);
    const story = await box.locator('.story').innerText();
    assert.ok(story.includes(`From call ${steady.fromCall} on, the script's own calls took turns in blocks`), story);
    // the compiled time per call said once, in the in-situ lines (its interrupted steps' calls left out, review 9 C1;
    // the middle pair of blocks' median call, session 33), on the per-call evidence's line of its own (review H4)
    const perCall = situ.lines!.filter((l) => l.includes('compiled 0.339 ms per call'));
    assert.ok(!story.includes('0.339 ms') && perCall.length === 1, story);
    assert.equal(median.toFixed(3), '0.339');
    await page.close();
  });

  test("the runner's in-situ lines (schema 1.24) are the panel's paragraph, word for word", async () => {
    const page = await openReport('reports/script-shapes-cpu');
    const { report } = await loadReport(reportPath('reports/script-shapes-cpu'));
    let shades = 0;
    // r2's only in-situ words are the reason its answer's sentence says: no lines, said once
    assert.deepEqual(
      report.regions!.filter((r) => !r.inSitu!.lines!.length).map((r) => r.id),
      ['r2'],
    );
    for (const region of report.regions!) {
      const lines = region.inSitu!.lines!;
      if (!lines.length) continue;
      const said = page.locator(`section.region[data-region="${region.id}"] .in-situ-lines`);
      // an indented line is an item under the line above it (its indent the list's)
      assert.equal(await said.innerText(), lines.map((l) => l.trimStart()).join('\n'));
      // the overlay's steady state says the runner's words for it
      const shade = page.locator(`section.region[data-region="${region.id}"] svg.in-situ rect.steady > title`);
      if ((await shade.count()) && region.inSitu!.step) {
        for (const title of await shade.allTextContents()) assert.equal(title, region.inSitu!.steadyText);
        shades++;
      }
    }
    assert.ok(shades > 0, 'a region with a steady step shades it');
    assert.deepEqual(errorsOf(page), []);
  });
});
