// Script reports in the webview (headless Chromium, real CSP; real runs' reports, recorded: test/fixtures/recorded/README.md): each region's first-call chart (marks for compile,
// recompile and eager calls with their reasons in the mark's title, the steady state shaded, a log scale when the
// compile call dwarfs the rest), its story, measurements and not-measured reason, a location click, the region
// timelines compared pairwise, and report strings drawn as text.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Report } from '../../extension/shared/report.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { BEFORE_EDIT } from '../../extension/present/findings.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { ARTIFACTS, debug, errorsOf, holdBrowser, openWebview, post, record, ROOT } from './harness.ts';
import { marks, openReport as openPanel, readReport, reportPath } from './reportPanelPages.ts';

// real runs (README.md in each fixture folder): four regions of train_small.py; a warm-up at size 1 before calls at
// size 4; a notebook; an encoder whose fast path broke the graph before any op (H200); a script measured in situ is
// inSituPanel.test.ts's
const TRAIN_SMALL = 'recorded/train_small-cpu';
const WARMUP = 'recorded/warmup_step-cpu';
const NOTEBOOK = 'recorded/explore-cpu';
const FASTPATH = 'recorded/encoder_fastpath-h200';
const browser = holdBrowser();

const openReport = (name: string, edit?: (report: Report) => Report): Promise<Page> => openPanel(browser(), name, edit);

describe('script regions in the report panel', () => {
  test('each region: chart marks for every call, the compile and recompile marked with their reasons, measurements, no CSP violation', async () => {
    // a real run of test/fixtures/recorded/train_small.py on this CPU (README there): four regions, each its own story
    const page = await openReport(TRAIN_SMALL);
    const recorded = readReport(TRAIN_SMALL);
    assert.equal(await page.locator('section.regions > h2').innerText(), '4 compiled regions in train_small');
    assert.equal(await page.locator('section.region').count(), 4);
    // the script's own entry times nothing: no eager/mode table with "not measured" rows above the regions
    assert.equal(await page.locator('section.report table.modes').count(), 0);
    // each region's answer first, once, as the runner wrote it
    for (const region of recorded.regions!)
      assert.equal(
        await page.locator(`section.region[data-region="${region.id}"] p.answer`).innerText(),
        region.answer!.sentence,
      );

    const r0 = await marks(page, 'r0');
    assert.equal(r0.length, 12);
    assert.deepEqual(
      r0.filter((m) => m.mark !== 'cached').map((m) => [m.call, m.mark]),
      [
        [0, 'compiled'],
        [3, 'switched-off'], // in situ's compiling-off block: calls 3-5 and 7-9
        [4, 'switched-off'],
        [5, 'switched-off'],
        [6, 'recompiled'],
        [7, 'switched-off'],
        [8, 'switched-off'],
        [9, 'switched-off'],
      ],
    );
    assert.match(
      r0[6]!.title,
      /^call 6: [\d.]+ m?s\nrecompiled because input 'x' changed size in dimension 1 from 128 to 256; compiling took [\d.]+ m?s\ninputs: float32\[8, 256, 64\]; inference$/,
    );
    // PyTorch's guard behind a toggle, as PyTorch wrote it
    const guards = page.locator('section.region[data-region="r0"] details.failed-guards');
    assert.equal(await guards.locator('pre').count(), 1);
    await guards.locator('summary').click();
    assert.equal(
      await guards.locator('pre').innerText(),
      "call 6: tensor 'x' size mismatch at index 1. expected 128, actual 256",
    );
    assert.match(r0[3]!.title, /^call 3: [\d.]+ m?s\ninputs: float32\[8, 128, 64\]; inference$/);
    assert.ok(
      r0.every((m, i) => i === 0 || m.x > r0[i - 1]!.x),
      'calls run left to right in order',
    );
    assert.ok(
      r0[0]!.y < r0[6]!.y && r0[6]!.y < r0[3]!.y,
      'the 2.0 s compile call is highest, the 0.71 s recompile next, cached calls low',
    );
    assert.equal(
      await page.locator('section.region[data-region="r0"] svg.first-calls').getAttribute('data-scale'),
      'log',
      'a compile call 700× the fastest calls: log scale',
    );

    const r0Box = page.locator('section.region[data-region="r0"]');
    const cells = await r0Box.locator('table.region-measurements tr').nth(1).locator('td').allInnerTexts();
    // the replay on one of the two input shapes called 6 times each (the later ones), said by the runner (review 6B S:
    // "most frequent" of a tie), times as the runner measured them; its
    // compile is the script's (the facts say it) and its number, timed on a busy host, backs no pay-back: no column
    // for either, and its number in the runner's words
    assert.match(
      cells.join('\t'),
      /^float32\[8, 256, 64\] under torch\.inference_mode\(\) \(one of 2 input shapes, 6 calls each\)\ttorch\.compile's defaults \(as written\)\t[\d.]+× per call replayed \([^\t]*\), host busy, not trusted\t[\d.]+ ms\t[\d.]+ ms\t\d+ → \d+$/,
    );
    // no direction word or colour on a number the answer calls untrusted: the runner's words for it instead, the busy
    // host the reason it decides nothing, too noisy for a range or not (review 9E E1)
    const speedup = r0Box.locator('table.region-measurements tr').nth(1).locator('td').nth(2);
    assert.equal(await speedup.getAttribute('class'), 'said-number');
    assert.match(await speedup.innerText(), /, host busy, not trusted$/);
    assert.match(
      await r0Box.locator('p.answer').innerText(),
      /^No verdict: \d\.\d+× per call replayed \(.*\), host busy, not trusted\. The host was contended/,
      'no verdict from a replay on a busy host, and why',
    );

    const r1 = await marks(page, 'r1');
    assert.deepEqual(
      r1.filter((m) => m.mark === 'eager').map((m) => m.call),
      [8, 9],
    );
    // Dynamo's fallback after the recompile limit, named apart from in situ's compiling-off calls (review 6B Q)
    assert.deepEqual(
      await page
        .locator('section.region[data-region="r1"] .region-chart:has(svg.first-calls) .legend-entry')
        .allInnerTexts(),
      ['compiled', 'recompiled', 'Dynamo fell back: ran eagerly'],
    );
    assert.match(
      r1[8]!.title,
      /\nran eagerly \(Dynamo fell back to the original code\): Dynamo stopped compiling step at its recompile limit, 8 \(torch\._dynamo\.config\.recompile_limit\); later calls run eagerly\n/,
    );
    assert.deepEqual(
      r1.filter((m) => m.mark === 'recompiled').map((m) => m.call),
      [1, 2, 3, 4, 5, 6, 7],
    );

    // review 6B S: ten shapes called once each; the replay's inputs are the last ones the script's compiled code ran on
    // (float32[4, 160] ran eagerly past the recompile limit: its replay timed eager code on both sides and failed)
    const r1Box = page.locator('section.region[data-region="r1"]');
    const step = recorded.regions![1]!;
    assert.deepEqual(
      step.measurements.map((m) => [m.signature, m.status, m.ranCompiled]),
      [['float32[4, 128]; inference', 'ok', true]],
    );
    assert.equal(r1[7]!.mark, 'recompiled', 'the script ran compiled code at those inputs');
    assert.equal(
      await r1Box.locator('table.region-measurements td.inputs').innerText(),
      // its grad mode in the runner's words, not the raw "; inference" (review 13P P7)
      'float32[4, 128] under torch.inference_mode() (one of 10 input shapes, each called once)',
    );
    assert.equal(await r1Box.locator('table.region-measurements td.error').count(), 0);
    assert.match(
      await r1Box.locator('p.answer').innerText(),
      /No verdict: [\d.]+× per call replayed \(a next run could land more than 3× away\), host busy, not trusted\./,
    );
    // review 4B P6: r0's replayed eager 6.2 ms under a chart of the script's eager calls at 50–90 ms says why, once
    // (its contended host is the answer's, not said again here), each median with its n, and which side of the
    // script's calls the busy host slowed, from its compiled calls against the replay's compiled (review 20X X1), here
    // none: its compiled calls at these inputs all ran under the profiler, whose time they carry (review 21Y Y1)
    const r0Notes = await page
      .locator('section.region[data-region="r0"] table.region-measurements td.note')
      .allInnerTexts();
    assert.deepEqual(r0Notes, [recorded.regions![0]!.measurements[0]!.notes!.at(-1)]);
    assert.match(
      r0Notes[0]!,
      /^The script's own eager calls at these inputs took [\d.]+ m?s \(median of \d+[^)]*\), [\d.]+× as long as the replay.s eager \(its fastest round\): other processes held the host's CPUs and delayed the script's calls\.$/,
    );
    assert.match(
      await page.locator('section.region[data-region="r2"] p.answer').innerText(),
      /^No verdict\b.*self\.calls \(0 → 1\)/,
    );
    assert.equal(
      await page.locator('section.region[data-region="r2"] table').count(),
      0,
      'no measurement table without a measurement',
    );

    // the region timelines: each replayed region's compiled trace beside its eager trace (r0's and r1's; r2 and r3
    // were not replayed); after TinyTransformer's, its calls as the observed run profiled them (its compiled window:
    // the script ended before it recorded a step)
    const d = await debug(page);
    assert.deepEqual(
      d.panes.map((p) => p.label),
      [
        'TinyTransformer, eager',
        "TinyTransformer, compiled with torch.compile's defaults",
        // TinyTransformer's calls, with its panes and by its name (review 9C C3: under `step`'s, read as its)
        'TinyTransformer, in situ eager',
        'step, eager',
        "step, compiled with backend='eager', dynamic=False",
      ],
    );
    assert.deepEqual(
      d.comparisons.map((c) => [c.before, c.after]),
      [
        ['TinyTransformer, eager', "TinyTransformer, compiled with torch.compile's defaults"],
        ['step, eager', "step, compiled with backend='eager', dynamic=False"],
      ],
    );
    // review 9C C4: each region's panes fitted to its own step: `step`'s 90 µs step across the width
    // TinyTransformer's 256 ms one spans, its axis in its own times (on TinyTransformer's "0 ms … 250 ms" axis, its
    // panes were 1 px slivers at 0 ms)
    const layouts = await page.evaluate(
      () => (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts,
    );
    const ticks = (p: number) => layouts[p]!.texts.filter((t) => t.role === 'tick').map((t) => t.text);
    assert.deepEqual(
      d.panes.slice(0, 3).map((p) => p.stretch),
      [1, 1, 1],
    );
    for (const p of [3, 4]) {
      assert.ok(d.panes[p]!.stretch > 100, `${d.panes[p]!.label}: ×${d.panes[p]!.stretch}`);
      assert.ok(
        ticks(p).some((t) => t.endsWith('µs')) && !ticks(p).some((t) => /\d ms$/.test(t)),
        ticks(p).join(' | '),
      );
      // its ops drawn across the width, not a sliver: many rects
      assert.ok(d.panes[p]!.rects >= 10, `${d.panes[p]!.label}: ${d.panes[p]!.rects} rects`);
    }
    assert.ok(
      ticks(0).some((t) => /\d00 ms$/.test(t)),
      ticks(0).join(' | '),
    );
    // review 10 F2: `step`'s panes came after TinyTransformer's (which have no warm-up) and have one: the view opens
    // past it, as the compare below (steps 2–3 of each) does, never on the step its note calls the warm-up
    const notes = await page.locator('.pane .pane-note').allInnerTexts();
    for (const p of [3, 4]) {
      assert.ok(!notes[p]!.includes('warm-up'), notes.join(' | '));
      assert.match(notes[p]!, /^steps? 2(–3)? in view \(of steps 1–3\)/, notes.join(' | '));
    }
    // each region's eager and compiled on one step, that step alone: never eager's "steps 2–3" beside compiled's
    // "step 2" (review 10 B10); TinyTransformer's, without a warm-up, on the first step its compare counts (steps
    // 2–3 of each; step 1 left out), never the step the table below leaves out
    const inView = (p: number): string | undefined => /^(.+?) in view/.exec(notes[p]!)?.[1];
    assert.deepEqual([0, 1, 3, 4].map(inView), ['step 2', 'step 2', 'step 2', 'step 2'], notes.join(' | '));
    // review 5A G2: the window's profiler steps are the script's calls after the one that opened it (the runner's
    // fromCall, its numbering from 0), said as those calls, never as "step 1" of a script that has calls
    // the eager window ended before call 6, whose new length compiled (review s29: its pane held that compiled call)
    const window = recorded.inSitu!.windows!['eager']!;
    assert.deepEqual([window.fromCall, window.steps], [3, 2]);
    const calls = [1, 2].map((n) => `call ${window.fromCall! + n}`);
    const situ = page.locator('.pane').nth(2);
    assert.match(
      await situ.locator('.pane-label').innerText(),
      /^TinyTransformer, in situ eager — [\d,]+ events, 2 calls$/,
    );
    // the view opens each region on its own step (review 10 B10): TinyTransformer's panes have no warm-up, the
    // window's first call, call 4, is its first (`step`'s panes have one: past it, above); that first is no warm-up
    // (the runner opened it after the profiler's own warm-up call, after the script's first calls): never said to be
    // one, and the window's call 5 is not drawn beside it
    assert.match(await situ.locator('.pane-note').innerText(), /^call 4 in view \(of calls 4–5\) · under the profiler/);
    // drawn on the eager pane's scale, two panes up: that pane by the name its title shows, never by a number no title
    // carries (review 19Y Y2: "on the scale of pane 1"), whole at the legible tests' widths
    const viewport = page.viewportSize()!;
    for (const width of [560, 700, 1400]) {
      await page.setViewportSize({ width, height: viewport.height });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const said = await page.locator('.pane .pane-note').allInnerTexts();
      assert.match(said[2]!, / · on the scale of the eager pane above$/, `${width} px`);
      for (const note of said) assert.doesNotMatch(note, /\bpane \d/, `${width} px: ${note}`);
      const clipped = await situ.locator('.pane-note').evaluate((e) => e.scrollWidth > e.clientWidth);
      assert.equal(clipped, false, `${width} px`);
    }
    await page.setViewportSize(viewport);
    const situTexts = await page.evaluate(() =>
      (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts[2]!.texts.map(
        (t) => t.text,
      ),
    );
    assert.ok(situTexts.includes(calls[0]!), situTexts.join(' | '));
    assert.ok(!situTexts.some((t) => t.includes('warm-up')), situTexts.join(' | '));
    assert.ok(!situTexts.includes(calls[1]!) && !situTexts.includes('call 6'), situTexts.join(' | '));
    assert.ok(!situTexts.some((t) => /\bsteps? \d/.test(t)), situTexts.join(' | '));

    // the compile rows name their region: TinyTransformer's and Counter's "forward" told apart; Counter's compiles
    // that made nothing say so, as the heading counts them (review 15 U2), "made no graph" held whole (review 17X X9)
    const rows = await page.locator('.compile-phases .phase-row:not(.phase-axis) .phase-label').allInnerTexts();
    assert.ok(
      rows.some((r) => r.startsWith('TinyTransformer: forward\u00a0·')) &&
        rows.some((r) => r.startsWith('Counter: forward, captured nothing, made\u00a0no\u00a0graph\u00a0·')),
      rows.join(' | '),
    );

    const { cspViolations } = await record(page);
    assert.deepEqual(cspViolations, []);
    assert.deepEqual(errorsOf(page), []);
    await screenshot(page, 'region-charts.png');
    // Shift+→ from a slice of `step`'s pane: a range of a twentieth of its own view, not of TinyTransformer's 256 ms
    // the panes' canvases, not the report's charts' (slicePoint counts every canvas of the page)
    await page.locator('.pane canvas').nth(3).scrollIntoViewIfNeeded();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const local = await page.evaluate(() =>
      (
        window as unknown as { __timelineDebug: { locate(p: number, n: string, k: number): { x: number; y: number } } }
      ).__timelineDebug.locate(3, 'aten::mm', 0),
    );
    const box = (await page.locator('.pane canvas').nth(3).boundingBox())!;
    await page.mouse.click(box.x + local.x, box.y + local.y);
    await page.locator('.panes').focus();
    await page.keyboard.press('Shift+ArrowRight');
    const range = (await debug(page)).range!;
    assert.equal((await debug(page)).selected?.pane, 3);
    assert.ok(range.pane === 3 && range.to - range.from < 100, JSON.stringify(range));
    await page.close();
  });

  test('the story above the chart, the steady state shaded from the first call after the recompile', async () => {
    const warmup = await openReport(WARMUP);
    assert.match(
      await warmup.locator('section.region[data-region="r0"] p.story').innerText(),
      /^Call 0 \(size 1 in dimension 0\) compiled a graph that none of the 6 later calls used \(all at size 4 in dimension 0\); call 1, the first at size 4 in dimension 0, took \d+ ms, \d+ ms of it recompiling/,
    );
    const storyBelowChart = await warmup.evaluate(() => {
      const story = document.querySelector('section.region p.story')!;
      const chart = document.querySelector('section.region .region-chart')!;
      return Boolean(story.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    assert.ok(storyBelowChart, 'the sentence comes first, the chart after it');
    // a pane on the scale of one not next to it names it by its title's name (review 19Y Y2: "… of pane 3")
    const warmupNotes = await warmup.locator('.pane .pane-note').allInnerTexts();
    assert.ok(
      warmupNotes.some((n) => / · on the scale of the [^·]+ pane (?:above|below)$/.test(n)),
      warmupNotes.join(' | '),
    );
    for (const note of warmupNotes) assert.doesNotMatch(note, /\bpane \d/, note);
    await screenshot(warmup, 'region-chart-warmup.png');
    await warmup.close();

    // rank 1 of a real torchrun job (test/fixtures/attach-2x2/README.md): compiled at call 0, recompiled at call 3 for
    // batch 8, its calls 4 and 5 the steady state
    const rank = 'attach-2x2/job/ranks/rank1';
    const steady = readReport(rank).regions![0]!.steadyState!;
    assert.equal(steady.fromCall, 4);
    const page = await openReport(rank);
    // review 4B P5: the heading says which rank's report this is (the runner's titleText)
    assert.match(await page.locator('section.report h2').innerText(), /^ddp_train, rank 1 of 4 — /);
    const box = page.locator('section.region[data-region="r0"]');
    const shade = box.locator('svg.first-calls rect.steady');
    assert.equal(await shade.locator('title').textContent(), steady.said);
    const rect = (await shade.boundingBox())!;
    const all = await marks(page, 'r0');
    assert.deepEqual(
      all.filter((m) => m.mark !== 'cached').map((m) => [m.call, m.mark]),
      [
        [0, 'compiled'],
        [3, 'recompiled'],
      ],
    );
    assert.ok(all[3]!.x < rect.x && rect.x < all[4]!.x, 'the shading starts between the recompile (call 3) and call 4');
    assert.ok(rect.x + rect.width >= all[5]!.x, 'and runs to the last call');
    assert.equal(
      await box
        .locator('.chart-legend')
        .innerText()
        .then((t) => t.replace(/\s+/g, ' ').trim()),
      'compiled recompiled compiled code reused steady state',
    );
    assert.equal(await box.locator('text.steady-label').textContent(), steady.label);
    assert.deepEqual(errorsOf(page), []);
    await screenshot(page, 'region-chart-steady.png');
    await page.close();
  });

  test("a notebook region's location link names its cell and posts reveal with the cell", async () => {
    const page = await openReport(NOTEBOOK);
    const link = page.locator('section.region[data-region="r0"] h3 button.link');
    assert.equal(await link.innerText(), 'explore.ipynb cell 4, line 2');
    await link.click();
    const { posted } = await record(page);
    assert.deepEqual(posted.at(-1), { type: 'reveal', file: '/tmp/e2erec4/explore.ipynb', line: 2, cell: 3 });
    await page.close();
  });

  test('a linear scale when no call dwarfs the others; report strings are text, not HTML', async () => {
    const hostile = '<img src=x onerror="document.title=1">';
    // train_small's normalize, called twice, its names and times replaced
    const page = await openReport(TRAIN_SMALL, (report) => {
      const { regions } = JSON.parse(JSON.stringify(report)) as Report;
      const r3 = regions![3]!;
      r3.name = hostile;
      r3.label = hostile; // the heading's, as the runner writes it
      r3.calls = r3.calls.map((c) => ({ ...c, ms: 1 + c.index, signature: hostile }));
      return { ...report, regions: [r3] };
    });
    const box = page.locator('section.region[data-region="r3"]');
    assert.equal(await box.locator('svg.first-calls').getAttribute('data-scale'), 'linear');
    assert.match(await box.locator('h3').innerText(), /<img src=x/);
    assert.equal(await page.locator('img').count(), 0);
    assert.deepEqual((await record(page)).cspViolations, []);
    await page.close();
  });

  test('a region that ran no compiled code: its sentence first (the line it names following an edit above it), no speedup table or chart', async () => {
    const region = readReport(FASTPATH).regions![0]!;
    const headline = region.noCompiledCode!.headline!;
    assert.match(
      headline,
      /^No compiled code ran: `aten\._transformer_encoder_layer_fwd` broke the graph at encoder_fastpath\.py:13 /,
    );
    const page = await openReport(FASTPATH);
    const box = page.locator('section.region[data-region="r0"]');
    // the runner's `code` shown as code, its backticks not drawn
    assert.equal(await box.locator('p.no-compiled-code').innerText(), headline.replaceAll('`', ''));
    assert.equal(
      await box.locator('p.no-compiled-code code').first().innerText(),
      'aten._transformer_encoder_layer_fwd',
    );
    // a line inserted above line 13 of the script (the host's 'edited'): the sentence names that line where it is now
    const above = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    await post(page, {
      type: 'edited',
      file: region.location!.file,
      cell: null,
      changes: [{ range: above, text: 'import os\n' }],
    });
    const moved = headline.replace('at encoder_fastpath.py:13 ', 'at encoder_fastpath.py:14 ').replaceAll('`', '');
    await box.locator('p.no-compiled-code', { hasText: 'encoder_fastpath.py:14' }).waitFor({ timeout: 10_000 });
    assert.equal(await box.locator('p.no-compiled-code').innerText(), moved);
    // the edit was in a file the report speaks for (the host's 'beforeEdit'): the panel says, under its title, that it
    // is from the run before it (reportC N8: the fast-path Quick Fix applied, "No compiled code ran" stood unmarked)
    await post(page, { type: 'beforeEdit', note: BEFORE_EDIT });
    await post(page, { type: 'beforeEdit', note: BEFORE_EDIT });
    assert.deepEqual(await page.locator('.before-edit').allInnerTexts(), [BEFORE_EDIT], 'said once');
    assert.equal(await page.locator('h1 + p.before-edit').count(), 1, 'under the title');
    assert.equal(await box.locator('table').count(), 0);
    assert.equal(await box.locator('svg').count(), 0);
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test("a region's CUDA-graph lines as the runner wrote them", async () => {
    // an H100 run whose graphs PyTorch ran without CUDA graphs (test/fixtures/why/README.md)
    const name = 'why/decode_static.rederived';
    const page = await openWebview(browser());
    const { report } = await loadReport(join(ROOT, 'test', 'fixtures', `${name}.report.json`));
    await post(page, {
      type: 'report',
      title: name,
      source: { kind: 'report' as const, reportPath: '/r.json' },
      report,
      traces: 0,
    });
    const lines = report.regions![0]!.compiler!.cudaGraphsLines!;
    assert.match(lines[0]!, /^CUDA graphs: 0 of 2 graphs captured$/);
    assert.equal(
      await page.locator('section.region[data-region="r0"] .cuda-graphs').innerText(),
      lines.map((l) => l.trimStart().replaceAll('`', '')).join('\n'),
    );
    await page.close();
  });

  test("a notebook's graph break in the report names its cell and opens the cell, not the .ipynb text", async () => {
    const page = await openReport(NOTEBOOK);
    const link = page.locator('section.report .breaks button.link').first();
    assert.equal(await link.innerText(), 'explore.ipynb cell 3, line 7');
    const before = (await record(page)).posted.length;
    await link.click();
    assert.deepEqual((await record(page)).posted.slice(before), [
      { type: 'reveal', file: '/tmp/e2erec4/explore.ipynb', line: 7, cell: 2 },
    ]);
    await page.close();
  });

  test('a target report has no regions section', async () => {
    const page = await openWebview(browser());
    const { report } = await loadReport(reportPath('reports/graphbreak-cpu'));
    const source = { kind: 'report' as const, reportPath: '/r.json' };
    await post(page, { type: 'report', title: 't', source, report, traces: 0 });
    assert.equal(await page.locator('section.regions').count(), 0);
    assert.equal(await page.locator('section.report').count(), 1);
    assert.equal(await page.locator('section.report table.modes').count(), 1);
    await page.close();
  });
});
/** For a person to look at (test-results/ is kept as the run's artifacts). */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
}
