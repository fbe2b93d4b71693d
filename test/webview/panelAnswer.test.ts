// The report panel says each answer once, in the runner's words, and draws only what a report holds (issue 44): a
// region's answer once (not again as the run's recommendation or as an older reason); a table column no row fills
// left out; the replay's row labelled as the replay beside the in-situ numbers; the in-situ chart's steady state
// only where the runner found one, each side's line broken where the other side ran; signed changes; the runner's
// indented lines as a list. On the fixture reports and real recordings, in headless Chromium (real CSP).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { digestRegion, formatRegion } from '../../extension/present/regionDigest.ts';
import { errorsOf, holdBrowser, openWebview, post, postTimeline } from './harness.ts';
import { readReport, reportPath } from './reportPanelPages.ts';

const browser = holdBrowser();

/** The report alone (no traces), at the panel's width. */
async function openReport(name: string, width = 1400): Promise<Page> {
  const page = await openWebview(browser(), { width, height: 900 });
  await post(page, {
    type: 'report',
    title: name,
    source: { kind: 'report', reportPath: reportPath(name) },
    report: readReport(name),
    traces: 0,
  });
  await page.locator('section.report').waitFor();
  return page;
}

const occurrences = (text: string, phrase: string): number => text.split(phrase).length - 1;

describe('one answer per region, in the runner’s words', () => {
  test('a torchrun job: the region’s answer said once, not again as the run’s recommendation or an older reason', async () => {
    const page = await openReport('reports/ddp-ranks-cpu');
    const region = readReport('reports/ddp-ranks-cpu').regions![0]!;
    assert.equal(await page.locator('section.region[data-region="r0"] p.answer').innerText(), region.answer!.sentence);
    // the answer's reason, in any of its wordings (headline, sentence, the run's recommendation), once on the panel
    assert.equal(occurrences(await page.locator('body').innerText(), 'it would wait in its collectives'), 1);
    assert.equal(await page.locator('p.recommendation').count(), 0, "a script's answer is its regions'");
    // review 3B M2: the step chart is the slowest rank's at each step, the call chart rank 0's; each says whose, and
    // step 3's compile mark says which rank compiled (rank 1; rank 0 waited on it)
    const box = page.locator('section.region[data-region="r0"]');
    assert.equal(await box.locator('.in-situ-chart p.chart-whose').innerText(), region.inSitu!.ranksText);
    assert.equal(
      await box.locator('svg.in-situ circle.situ-mark[data-call="3"] > title').textContent(),
      region.inSitu!.compileSteps!.find((c) => c.index === 3)!.text,
    );
    assert.match(region.inSitu!.compileSteps!.find((c) => c.index === 3)!.text, /compiled 2 times on rank 1,/);
    assert.match(
      await box.locator('svg.first-calls').locator('..').locator('.chart-legend').innerText(),
      /rank 0's calls/,
    );
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test('graph breaks at one line with one fix are one item, its ×3 what the heading counts, its fix said once (review 5C M9)', async () => {
    // rank 0 of the attach job: at line 78, DDP's Logger call once and its _inside_ddp_forward twice, one fix for both
    const page = await openReport('attach-2x2/job/ranks/rank0');
    const breaks = page.locator('section.report .breaks');
    assert.equal(await breaks.locator('h3').innerText(), '3 graph breaks');
    const items = await breaks.locator('li').allInnerTexts();
    assert.equal(items.length, 1, items.join(' | '));
    assert.match(
      items[0]!,
      /Logger\.set_runtime_stats_and_log and DistributedDataParallel\._inside_ddp_forward\b.* ×3 /s,
    );
    assert.equal(await breaks.locator('.fix').count(), 1);
    // the runner's fix as every "Fix:" of the page reads, lower case after it (review 22Y Y1: "Fix: Compile the model …")
    assert.match(
      await breaks.locator('.fix').innerText(),
      /^Fix: compile the model inside DDP, not DDP itself, with model\.compile\(\)/,
    );
    // the region's facts count the same breaks
    assert.match(await page.locator('section.region').first().innerText(), / 3 graph breaks /);
    await page.close();
  });

  test('a target report keeps its one recommendation', async () => {
    const page = await openReport('reports/graphbreak-cpu');
    assert.equal(
      await page.locator('section.report p.recommendation').innerText(),
      `Recommendation: ${readReport('reports/graphbreak-cpu').recommendation.reason}`,
    );
    await page.close();
  });
});

describe('tables say what their rows hold', () => {
  test('the in-situ screen: the replay’s row says it is the replay, in the runner’s words; no column left empty', async () => {
    const page = await openReport('reports/script-in-situ-cpu', 560);
    const region = readReport('reports/script-in-situ-cpu').regions![0]!;
    const table = page.locator('section.region[data-region="r0"] table.region-measurements');
    assert.deepEqual(await table.locator('th').allTextContents(), [
      'inputs',
      'mode',
      'evidence, not the answer',
      'compiled',
      'eager',
      'CPU ops / call', // a CPU run's count in the compare's word (review 17 Y2)
    ]); // the in-situ steps are the answer's number (1.22×, not clearly faster); the replay, beside it, evidence
    const replayed = [region.answer!.number, ...(region.answer!.evidence ?? [])].find((n) => n?.kind === 'replay-call');
    const said = replayed?.text ?? '';
    assert.match(said, /per call replayed/, 'the runner says the replay as such');
    // stacked at 560 px: the cell names its column, then the runner's words for the number and its range
    const speedup = table.locator('td[data-label="evidence, not the answer"]');
    assert.equal(await speedup.innerText(), said);
    // in the view, beside the in-situ 0.704 ms / 0.862 ms said above it
    assert.match(
      await page.locator('section.region[data-region="r0"] .in-situ-lines').innerText(),
      /eager 0\.862 ms → compiled 0\.704 ms/,
    );
    await page.close();
  });

  test("serve_script: a replay row that is evidence beside the in-situ answer is not called the region's speedup", async () => {
    // review H4 / D2: "speedup 0.90× per call replayed" under a headline's "1.03× per step in situ"
    const page = await openReport('recorded/serve_script-cpu', 560);
    const region = readReport('recorded/serve_script-cpu').regions![0]!;
    assert.equal(region.answer!.number!.kind, 'in-situ-step');
    const table = page.locator('section.region[data-region="r0"] table.region-measurements');
    assert.ok(!(await table.locator('th').allTextContents()).includes('speedup'));
    assert.equal(await table.locator('td[data-label="speedup"]').count(), 0);
    const evidence = table.locator('td[data-label="evidence, not the answer"]');
    assert.match(await evidence.innerText(), /^0\.90× per call replayed \(/);
    // the CLI says the same row in the same role words: the runner's (schema 1.40 roleText, report/roles.py)
    assert.equal(region.measurements[0]!.roleText, 'evidence, not the answer');
    const cli = formatRegion(digestRegion(region));
    assert.ok(
      cli.some((l) => /^ {4}replay \(evidence, not the answer\): .* 0\.90× per call replayed \(/.test(l)),
      cli.join('\n'),
    );
    // where one row is the answer's and another evidence, the column is neither's (nor "replayed": a title that
    // assumes what every row measured): each stacked cell says which, in the words the CLI's lines say
    const mixed = readReport('recorded/serve_script-cpu');
    const answer = mixed.regions![0]!.answer!;
    const replay = answer.evidence!.find((n) => n.kind === 'replay-call')!;
    mixed.regions![0]!.measurements.push({ ...mixed.regions![0]!.measurements[0]!, modeText: "mode='max-autotune'" });
    answer.evidence!.push({ ...replay, index: 1 });
    answer.number = replay;
    // as the runner words them (test_roles.py: report/roles.py)
    mixed.regions![0]!.measurements[0]!.roleText = 'speedup';
    mixed.regions![0]!.rolesText = 'speedup or evidence';
    const both = await openWebview(browser(), { width: 560, height: 900 });
    await post(both, {
      type: 'report',
      title: 'mixed',
      source: { kind: 'report', reportPath: '/r/mixed/report.json' },
      report: mixed,
      traces: 0,
    });
    const rows = both.locator('section.region[data-region="r0"] table.region-measurements');
    assert.ok((await rows.locator('th').allTextContents()).includes('speedup or evidence'));
    assert.deepEqual(
      await rows.locator('td.said-number').evaluateAll((tds) => tds.map((td) => (td as HTMLElement).dataset['label'])),
      ['speedup', 'evidence, not the answer'],
    );
    assert.deepEqual(
      formatRegion(digestRegion(mixed.regions![0]!))
        .filter((l) => l.startsWith('    replay'))
        .map((l) => /^ {4}replay \(([^)]+)\)/.exec(l)?.[1]),
      ['speedup', 'evidence, not the answer'],
    );
    await both.close();
    // the in-situ per-call number is a line of its own, said as the evidence it is
    assert.match(
      await page.locator('section.region[data-region="r0"] .in-situ-lines').innerText(),
      /the region's calls alone, without the rest of each step's work \(evidence, not the answer\): 1\.00× per call in situ/,
    );
    await page.close();
  });

  test('the modes table: a column no row fills is left out, and eager has no per-call cell of its own', async () => {
    // counter-cpu: its one mode not measured (its compiled calls ran eagerly), so no row has a range or a time
    const counter = await openReport('reports/counter-cpu');
    // a CPU run's count is of its CPU ops, as its compare's rows say (review 18Y Y1: "kernels / step" of a CPU run)
    assert.deepEqual(await counter.locator('table.modes th').allTextContents(), ['mode', 'speedup', 'CPU ops / step']);
    await counter.close();
    // fused-cpu: measured, with a range; eager's time in its mode's row, not a row of its own
    const fused = await openReport('reports/fused-cpu');
    assert.deepEqual(await fused.locator('table.modes th').allTextContents(), [
      'mode',
      'speedup',
      'next run',
      'per call',
      'CPU ops / step',
    ]);
    assert.doesNotMatch(await fused.locator('table.modes').innerText(), /timed with each mode/);
    assert.match(
      await fused.locator('table.modes').innerText(),
      /\(eager \d+(\.\d+)?\s(ms|µs)\)/,
      "eager's time in its mode's row",
    );
    // review 4A F11: the legend is the runner's plain sentence (report.speedupNote), not the code's words
    const legend = readReport('reports/fused-cpu').speedupNote!;
    assert.match(
      legend,
      /^Speedup: eager's time ÷ compiled time, each side's fastest of \d+ runs, the two taking turns/,
    );
    assert.equal(await fused.locator('section.report > p.note').first().innerText(), legend);
    await fused.close();
  });

  test('graph breaks: no heading over an empty list; a link names the file’s base name, its full path in the title', async () => {
    const fused = await openReport('reports/fused-cpu');
    assert.equal(readReport('reports/fused-cpu').modes[0]!.compiler!.graphBreaks.length, 0);
    assert.equal(await fused.locator('section.report .breaks').count(), 0);
    assert.doesNotMatch(await fused.locator('section.report').innerText(), /graph break/);
    await fused.close();
    const page = await openReport('recorded/train_small-cpu');
    const link = page.locator('section.report .breaks button.link').first();
    assert.equal(await link.innerText(), 'train_small.py:29');
    assert.equal(await link.getAttribute('title'), '/tmp/e2erec4/train_small.py');
    await page.close();
  });
});

describe('the in-situ chart draws what the runner found', () => {
  /** Each in-situ chart's legend entries and whether it shades a steady state, by region. */
  const charts = (page: Page): Promise<Record<string, { legend: string[]; steady: number }>> =>
    page.locator('section.region').evaluateAll((boxes): Record<string, { legend: string[]; steady: number }> =>
      Object.fromEntries(
        boxes.flatMap((box): [string, { legend: string[]; steady: number }][] => {
          const chart = box.querySelector('.in-situ-chart');
          if (!chart) return [];
          const legend = [...chart.querySelectorAll('.legend-entry')].map((e) => e.textContent ?? '');
          return [
            [
              (box as HTMLElement).dataset['region'] ?? '',
              { legend, steady: chart.querySelectorAll('svg.in-situ rect.steady').length },
            ],
          ];
        }),
      ),
    );

  test('no steady state shaded where the runner found no steady step; no legend entry for a side with no step', async () => {
    const name = 'recorded/train_small-cpu';
    const page = await openReport(name);
    const report = readReport(name);
    const drawn = await charts(page);
    // r3 (normalize, called twice) has one step, its compile: no chart for a lone dot the story says (review G11)
    assert.deepEqual(Object.keys(drawn).sort(), ['r0', 'r1', 'r2']);
    const normalize = report.regions!.find((r) => r.id === 'r3')!;
    assert.equal(normalize.inSitu!.series!.compiled.filter((p) => p[1] !== null && p[1] > 0).length, 1);
    assert.match(normalize.story ?? '', /^Call 0 compiled \(118 ms\)/);
    for (const region of report.regions!.filter((r) => r.id !== 'r3')) {
      const { legend, steady } = drawn[region.id]!;
      assert.equal(region.inSitu!.step ?? null, null, `${region.id}: the runner found no steady step`);
      assert.equal(steady, 0, `${region.id}: nothing shaded`);
      assert.ok(!legend.some((l) => l.startsWith('steady state')), `${region.id}: ${legend.join(', ')}`);
      const eagerSteps = region.inSitu!.series!.eager.filter((p) => p[1] !== null && p[1] > 0).length;
      assert.equal(legend.includes('compiling off (eager)'), eagerSteps > 0, `${region.id}: ${legend.join(', ')}`);
    }
    assert.ok(drawn['r0']!.legend.includes('compiling off (eager)'), 'r0 has eager steps');
    await page.close();
    // a region with steady steps both ways shades them (each run of counted steps), and names the shading
    const steady = await openReport('recorded/serve_script-cpu');
    const [chart] = Object.values(await charts(steady));
    assert.ok(chart!.steady > 1, `${chart!.steady} shaded runs`);
    assert.ok(chart!.legend.includes('steady state (the steps counted)'), chart!.legend.join(', '));
    await steady.close();
  });

  test("each side's line is broken where the other side ran: one piece per block of its steps", async () => {
    const name = 'recorded/serve_script-cpu';
    const page = await openReport(name);
    const series = readReport(name).regions![0]!.inSitu!.series!;
    // the blocks of each side in call order, from the recorded series (the interleaved run takes turns)
    const steps = (['compiled', 'eager'] as const).flatMap((side) =>
      series[side].flatMap((p, k) => (p[1] !== null && p[1] > 0 ? [{ side, index: p[3] ?? k }] : [])),
    );
    steps.sort((a, b) => a.index - b.index);
    const blocks = { compiled: 0, eager: 0 };
    steps.forEach((s, k) => {
      if (k === 0 || steps[k - 1]!.side !== s.side) blocks[s.side]++;
    });
    assert.ok(blocks.compiled > 1 && blocks.eager > 1, `the sides took turns: ${JSON.stringify(blocks)}`);
    const pieces = await page
      .locator('svg.in-situ path.run[data-side]')
      .evaluateAll((paths): Record<string, number> =>
        Object.fromEntries(
          paths.map((p): [string, number] => [
            (p as SVGElement).dataset['side'] ?? '',
            (p.getAttribute('d') ?? '').split('M').length - 1,
          ]),
        ),
      );
    assert.deepEqual(pieces, blocks);
    await page.close();
  });
});

describe('the runner’s words as it wrote them', () => {
  test('a line the runner indents is an item under the line above it, drawn with no stray indent', async () => {
    const name = 'recorded/serve_script-cpu';
    const page = await openReport(name, 560);
    const lines = readReport(name).regions![0]!.inSitu!.lines!;
    const indented = lines.filter((l) => l.startsWith('  '));
    assert.ok(indented.length > 0);
    const said = page.locator('section.region[data-region="r0"] .in-situ-lines');
    assert.deepEqual(
      await said.locator('li').allInnerTexts(),
      indented.map((l) => l.trimStart()),
    );
    for (const line of (await said.innerText()).split('\n')) assert.doesNotMatch(line, /^\s/, line);
    await page.close();
  });

  test('the compare table: changes signed ("+534%", "−50%"), a kernel named without the family its name says', async () => {
    const page = await openWebview(browser());
    await postTimeline(page, await readTimelineSource({ kind: 'report', reportPath: reportPath('reports/fused-cpu') }));
    const table = page.locator('.compare-table');
    await table.waitFor();
    const changes = await table.locator('tr[data-metric] td:last-child').allTextContents();
    const percents = changes.filter((c) => c.endsWith('%'));
    assert.ok(percents.length > 0, changes.join(' | '));
    for (const change of percents) assert.match(change, /^([+−]\d+|0)%$/, change);
    assert.ok(
      percents.some((c) => c.startsWith('+')),
      `an increase is signed: ${percents.join(' | ')}`,
    );
    const kernels = await page.locator('.compare ul.kernels li').allTextContents();
    assert.ok(kernels.length > 0);
    for (const kernel of kernels) assert.doesNotMatch(kernel, /× aten: aten::/, kernel);
    // each time is the mean of the steps its list's heading names, the steps the kernel's details say theirs are of
    // (review 8A A6, 13O O2: "— 0.891 µs" beside "0.943 µs/step under the profiler", of every profiled step)
    const only = await page.locator('.compare ul.kernels:not(.called-as) li').allTextContents();
    assert.ok(only.length > 0, 'the compare lists kernels only one side ran');
    for (const kernel of only) assert.match(kernel, / — [\d.]+ (?:µs|ms)\/step$/, kernel);
    const headings = await page.locator('.compare h4').allTextContents();
    assert.ok(
      headings.some((h) => /^CPU ops only in .*, per step in steps 2–3 \(\d+\)$/.test(h)), // a CPU trace (review 17 Y2)
      headings.join(' | '),
    );
    // a PyTorch op by its family and its name as the timeline's slices say it, no namespace twice (s31-bands)
    assert.ok(
      kernels.some((k) => /× aten: [a-z_]+ — /.test(k)),
      kernels.join(' | '),
    );
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });
});
