// What the compiler made, in the report panel (headless Chromium, real CSP): the compile-phase timeline of a
// report, and the source side of a selected kernel: a generated kernel's fused ops, user-line links and "Open
// generated code" (CPU C++ and H100 Triton), an eager kernel's ATen op and user function from the trace's Python stacks.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TimelinePane } from '../../extension/shared/protocol.ts';
import { TERMS } from '../../extension/present/glossary.ts';
import { loadReport } from '../../extension/node/reportFile.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { ARTIFACTS, errorsOf, holdBrowser, openWebview, post, postPanes, record, slicePoint } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

const FIXTURES = join(__dirname, '..', 'fixtures');
const browser = holdBrowser();

/** Opens the panel of a report with the given panes (label, trace file under test/fixtures), in Light Modern: the
 *  screenshots show what a user sees (VS Code's font and colours, not a bare page's serif). */
async function openReport(reportDir: string, panes: [string, string][]): Promise<Page> {
  const folder = reportDir.includes('/') ? reportDir : `reports/${reportDir}`; // else a recorded run's, by its folder
  const { report } = await loadReport(join(FIXTURES, folder, 'report.json'));
  const models: TimelinePane[] = await Promise.all(
    panes.map(async ([label, file]) => ({ label, trace: await scanTraceFile(join(FIXTURES, file)) })),
  );
  const page = await openWebview(browser());
  const source = { kind: 'report' as const, reportPath: `/r/${reportDir}/report.json` };
  await post(page, { type: 'report', title: reportDir, source, report, traces: models.length });
  await postPanes(page, reportDir, source, models);
  await applyTheme(page, THEMES[0]!);
  return page;
}

async function select(page: Page, pane: number, name: string, onGpu?: boolean): Promise<string> {
  await page.locator('canvas').nth(pane).scrollIntoViewIfNeeded();
  const point = await slicePoint(page, pane, name, 0, onGpu);
  await page.mouse.click(point.x, point.y);
  await page.locator('.kernel-source').waitFor();
  return page.locator('.kernel-source').innerText();
}

describe('compiler views in the report panel', () => {
  test('compile phases: a row per compile, nested phase bars with their times, cache lookups marked', async () => {
    const page = await openReport('fused-cpu', [
      ['eager', 'reports/fused-cpu/eager.trace.json'],
      ['default', 'reports/fused-cpu/default.trace.json'],
    ]);
    const section = page.locator('details.compile-phases[data-mode="default"]');
    await section.waitFor();
    assert.match(
      await section.locator('summary').innerText(),
      /^Compile phases — mode='default': 2 compiles, [\d.]+ s \(a cold compile cache: later runs load it\)$/,
    );
    const labels = await section.locator('.phase-row:not(.phase-axis) .phase-label').allInnerTexts();
    assert.equal(labels.length, 2);
    // each compile named by its function, not by Dynamo's compile id
    // the time held to its "·", its unit and the name's last word by no-break spaces (review 10H E12)
    assert.match(labels[0]!, /^forward\u00a0·\u00a0[\d.]+\u00a0s$/);
    // and "dimension" to its "0" (review 11K K5)
    assert.match(
      labels[1]!,
      /^forward, recompiled for x's size 16 in dimension\u00a00\u00a0·\u00a0[\d.]+\u00a0(s|ms)$/,
    );
    // then why it recompiled in the user's terms, PyTorch's words after, then the id, explained (glossary.ts); after them
    // the phases too narrow to label at this width (narrow.test)
    // the label whole first (a word longer than the label column ends in "…")
    const recompileTip = (await section.locator('.phase-label').nth(2).getAttribute('title'))!.split('\n');
    assert.equal(recompileTip[0], labels[1]!.replace('dimension\u00a00', 'dimension 0'));
    assert.deepEqual(recompileTip.slice(1, 5), [
      "Input 'x' changed size in dimension 0 from 8 to 16; the compiled code had been specialised to 8, so it was recompiled for 16.",
      "PyTorch's words: tensor 'x' size mismatch at index 0. expected 8, actual 16",
      "Dynamo's compile id 0/1",
      TERMS.find((t) => t.name === 'compile id')!.explanation,
    ]);
    const titles = await section.locator('.phase title').allTextContents();
    for (const phase of ['Dynamo: whole frame', 'AOT Autograd', 'Inductor: codegen', 'C++ compile']) {
      const escaped = phase.replace(/[+.]/g, (c) => `\\${c}`);
      assert.ok(
        // its first line: a bar with phases inside says after it what the log names there
        titles.some((t) =>
          // "C++ compile (3 of 5)": one of its row's several
          new RegExp(`^${escaped}(?: \\(\\d+ of \\d+\\))?: [\\d.]+ (s|ms) \\(forward, at [\\d.]+ (s|ms)\\)$`).test(
            t.split('\n')[0]!,
          ),
        ),
        `${phase} bar with its time`,
      );
    }
    // nested: an inner phase's bar is on a lower row than the frame's
    const y = async (phase: string): Promise<number> =>
      Number(
        await section
          .locator('.phase', { has: page.locator('title', { hasText: phase }) })
          .first()
          .locator('rect')
          .getAttribute('y'),
      );
    assert.ok((await y('Inductor: codegen')) > (await y('Dynamo: whole frame')));
    const caches = await section.locator('.cache-marker title').allTextContents();
    assert.deepEqual(
      caches.map((t) => t.replace(/, at .*\)$/, ')')),
      [
        'AOT autograd cache: miss (forward)',
        'FX graph cache: miss (forward)',
        "AOT autograd cache: miss (forward, recompiled for x's size 16 in dimension 0)",
        "FX graph cache: miss (forward, recompiled for x's size 16 in dimension 0)",
      ],
    );
    assert.equal(await section.locator('.cache-marker.cache-miss').count(), 4);
    // review 5A G7: the recompile's AOT Autograd bar, its cache miss's diamond at its start and no room right of it
    // (the axis ends with the recompile), is labelled left of the diamond (its codegen not: the lowering's bar right
    // before it would be nearer that label than its own, review 13 O1)
    const recompile = section.locator('.phase-row:not(.phase-axis)').nth(1);
    const shown = await recompile.locator('g.phase').evaluateAll((bars) =>
      bars.flatMap((bar) => {
        const text = bar.querySelector('text');
        // its title: "Inductor: codegen: 61.4 s (forward, at …)"
        const phase = /^(.*?): [\d.]+ m?s /.exec(bar.querySelector('title')?.textContent ?? '')?.[1] ?? '';
        return text && text.style.display !== 'none' ? [`${phase}: ${text.textContent}`] : [];
      }),
    );
    for (const phase of ['AOT Autograd'])
      assert.ok(
        shown.some((t) => t.startsWith(`${phase}: ${phase}`)),
        shown.join(' | '),
      );
    await section.screenshot({ path: join(ARTIFACTS, 'compile-phases.png') });
    assert.deepEqual((await record(page)).cspViolations, []);
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test("a compile that hit the recompile limit is drawn as that, not as one more recompile (the runner's name)", async () => {
    // train_small.py (recorded): step's ninth compile (1/8) failed at the recompile limit and made no graph
    const { report } = await loadReport(join(FIXTURES, 'recorded/train_small-cpu/report.json'));
    const limited = report.modes[0]!.compiler!.frames!.find((f) => f.compileId === '1/8')!;
    assert.equal(limited.nameText, 'step: hit the recompile limit, made no graph');
    const page = await openReport('recorded/train_small-cpu', []);
    const section = page.locator('details.compile-phases[data-mode="script"]');
    await section.waitFor();
    await section.evaluate((d) => ((d as HTMLDetailsElement).open = true));
    const labels = await section.locator('.phase-row:not(.phase-axis) .phase-label').allInnerTexts();
    assert.ok(
      // as drawn, "made no graph" held whole by no-break spaces (review 17X X9)
      labels.some((l) => l.replace(/\u00a0/g, ' ').startsWith(`${limited.nameText} ·`)),
      labels.join('\n'),
    );
    assert.ok(!labels.some((l) => l.includes('recompile 8')), labels.join('\n'));
    await section.screenshot({ path: join(ARTIFACTS, 'compile-phases-recompile-limit.png') });
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test("a cache hit with a C++ compile under its load: the legend and that bar's hover say loading builds the C++ not built yet (review 8 A9)", async () => {
    const { report } = await loadReport(join(FIXTURES, 'recorded/serve_script-cpu/report.json'));
    const said = report.modes[0]!.compiler!.cacheBuildText!;
    assert.match(said, /builds its C\+\+ where this machine has not built it yet/);
    const page = await openReport('recorded/serve_script-cpu', []);
    const box = page.locator('section.compile-timeline');
    await box.waitFor();
    assert.ok(
      await box.locator('.phase-legend .legend-entry svg.cache-hit').isVisible(),
      'the cache hit in the legend',
    );
    assert.deepEqual(await box.locator('.phase-legend .legend-note').allInnerTexts(), [said]);
    const tips = await box.locator('.phase-track g.phase title').allTextContents();
    const cpp = tips.filter((t) => t.startsWith('C++ compile:'));
    assert.equal(cpp.length, 1, tips.join('\n'));
    assert.ok(cpp[0]!.endsWith(said), cpp[0]);
    assert.ok(!tips.some((t) => !t.startsWith('C++ compile:') && t.includes(said)), 'said on the C++ bar alone');
    await box.screenshot({ path: join(ARTIFACTS, 'compile-phases-cache-build.png') });
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test("a compile-phase row's name cites its line where an edit moved it, in the row, its hover and its bars' (review N3)", async () => {
    // train_small.py (recorded): forward's compile after the graph break at line 29
    const page = await openReport('recorded/train_small-cpu', []);
    const section = page.locator('details.compile-phases[data-mode="script"]');
    await section.waitFor();
    // its label's "line 29" held together where drawn (review 11K K5)
    const rows = (await section.locator('.phase-row').allInnerTexts()).map((r) => r.replace(/\u00a0/g, ' '));
    assert.equal(rows.filter((r) => r.includes('forward after line 29')).length, 1, rows.join('\n'));
    const row = section.locator('.phase-row').nth(rows.findIndex((r) => r.includes('forward after line 29')));
    const said = async (): Promise<string[]> =>
      row.evaluate((r) => [
        r.querySelector('.phase-label')!.textContent.replace(/\u00a0/g, ' '),
        r.querySelector<HTMLElement>('.phase-label')!.title.split('\n')[0]!,
        ...[...r.querySelectorAll('g.phase > title')].map(
          (t) => /\(([^,]*forward[^,]*),/.exec(t.textContent)?.[1] ?? '',
        ),
      ]);
    const before = await said();
    assert.ok(before.length > 2, 'the row has bars');
    for (const text of before) assert.match(text, /forward after line 29\b/);
    // two lines put above line 29 (the host's 'edited'), then one removed above it: line 29 is line 30 now
    const at = (line: number): { line: number; character: number } => ({ line, character: 0 });
    await post(page, {
      type: 'edited',
      file: '/tmp/e2erec4/train_small.py',
      cell: null,
      changes: [
        { range: { start: at(0), end: at(0) }, text: 'import os\nimport sys\n' },
        { range: { start: at(3), end: at(4) }, text: '' },
      ],
    });
    const after = await said();
    assert.deepEqual(
      after,
      before.map((text) => text.replace('line 29', 'line 30')),
    );
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test('a generated C++ function: fused ops, links to the user lines, Open generated code of the compile that ran it', async () => {
    const page = await openReport('fused-cpu', [
      ['eager', 'reports/fused-cpu/eager.trace.json'],
      ['default', 'reports/fused-cpu/default.trace.json'],
    ]);
    const text = await select(page, 1, 'graph_3_cpp_fused_add_mul_relu_0');
    assert.match(text, /Generated by Inductor for forward, recompiled for x's size 16 in dimension 0/);
    assert.match(text, /fuses\s+add, mul, relu/);
    assert.match(text, /h = h \* 2\.0 \+ 1\.0/);
    // the runner's mean of the steps the compare counts, its number and its steps (review 13O O2: 0.943 µs of every
    // step here beside the compare's 0.891 µs of steps 2–3)
    assert.match(text, /average\s+0\.891 µs\/step under the profiler, mean of steps 2–3/);
    const before = (await record(page)).posted.length;
    await page.locator('.kernel-source button.link', { hasText: 'fused.py:13' }).click();
    await page.locator('.kernel-source vscode-button.open-code').click();
    assert.deepEqual((await record(page)).posted.slice(before), [
      { type: 'reveal', file: '/tmp/fusedsrc/fused.py', line: 13 },
      { type: 'openGeneratedCode', mode: 'default', compileId: '0/1', codeLine: 34 },
    ]);
    await page.locator('.details-box').screenshot({ path: join(ARTIFACTS, 'kernel-source-cpu.png') });
    // a line put above the kernel's (the host's 'edited'): its name on the timeline and in the details cites the
    // lines where they are now, as the report's links do
    const said = "fused C++ function 1 of forward, recompiled for x's size 16 in dimension 0 (lines 12, 13)";
    assert.equal(await page.locator('.details h3').innerText(), said);
    const above = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    await post(page, {
      type: 'edited',
      file: '/tmp/fusedsrc/fused.py',
      cell: null,
      changes: [{ range: above, text: 'import os\n' }],
    });
    const moved = "fused C++ function 1 of forward, recompiled for x's size 16 in dimension 0 (lines 13, 14)";
    await page.locator('.details h3', { hasText: moved }).waitFor({ timeout: 10_000 });
    const point = await slicePoint(page, 1, 'graph_3_cpp_fused_add_mul_relu_0');
    await page.mouse.move(point.x, point.y);
    await page.locator('.tooltip').waitFor({ state: 'visible' });
    assert.equal((await page.locator('.tooltip').innerText()).split('\n')[0], moved);
    await page.close();
  });

  test("a script region's kernel (graph_1_…, a real CPU script report): fused ops, the user's lines, Open generated code of the script's compile", async () => {
    const page = await openReport('script-kernels-cpu', [
      ['TinyMLP, eager', 'reports/script-kernels-cpu/regions/r1-eager.trace.json'],
      [
        "TinyMLP, compiled with torch.compile's defaults",
        'reports/script-kernels-cpu/regions/r1-as-written.trace.json',
      ],
    ]);
    const text = await select(page, 1, 'graph_1_cpp_fused_gelu_0');
    assert.match(text, /Generated by Inductor for forward(?!,)/);
    // gelu as the user wrote it, not the erf and mul Inductor recorded for it (review E13)
    assert.match(text, /fuses\s+gelu(?!,)/);
    assert.match(text, /your lines\s+two_regions\.py:13/);
    // its time per step from the region's profile of the script's own callable, the compare's number (review 14R R9:
    // "this one took 1.80 µs" alone, the compare's 1.26 µs/step)
    assert.match(text, /average\s+1\.26 µs\/step under the profiler, mean of steps 2–3/);
    const before = (await record(page)).posted.length;
    await page.locator('.kernel-source vscode-button.open-code').click();
    // the script's compiles hold the generated code: the "script" entry, not the pane's label
    assert.deepEqual((await record(page)).posted.slice(before), [
      { type: 'openGeneratedCode', mode: 'script', compileId: '1/0', codeLine: 34 },
    ]);
    await page.locator('.details-box').screenshot({ path: join(ARTIFACTS, 'kernel-source-script.png') });
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test("a pane scrolled under its pinned title says so, and its title's hint shows its top (review 10 G2: 'scale, eager' over a blank)", async () => {
    const page = await openReport('script-kernels-cpu', [
      ['TinyMLP, eager', 'reports/script-kernels-cpu/regions/r1-eager.trace.json'],
      [
        "TinyMLP, compiled with torch.compile's defaults",
        'reports/script-kernels-cpu/regions/r1-as-written.trace.json',
      ],
    ]);
    await page.setViewportSize({ width: 700, height: 500 });
    const eager = page.locator('.pane').nth(0);
    const hint = eager.locator('.pane-label .pinned-hint');
    // the compiled pane scrolled to, as the e2e's kernel click does: the eager pane's axis and thread under the toolbar
    await page.locator('.pane canvas').nth(1).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('.pane .pane-label')?.classList.contains('pinned'));
    assert.ok(await hint.isVisible(), 'the pinned title says its top is scrolled above');
    assert.equal((await hint.innerText()).trim(), '· its top is scrolled above: click to show it');
    await page.screenshot({ path: join(ARTIFACTS, 'pinned-title.png') });
    await hint.click();
    await page.waitForFunction(() => !document.querySelector('.pane .pane-label')?.classList.contains('pinned'));
    const toolbar = (await page.locator('.toolbar').boundingBox())!;
    const note = (await eager.locator('.pane-note').boundingBox())!;
    assert.ok(note.y >= toolbar.y + toolbar.height, `the eager pane's steps note below the toolbar: ${note.y}`);
    assert.match(await eager.locator('.pane-note').innerText(), /in view/);
    assert.ok(!(await hint.isVisible()), 'not pinned: no hint');
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  test("a Triton kernel on the H100 (found by its launch's compiled region) and an eager kernel's ATen op and line", async () => {
    const page = await openReport('h100-mlp', [
      ['eager', 'traces/mlp-eager.trace.json'],
      ['default', 'traces/mlp-default.trace.json'],
    ]);
    const triton = await select(page, 1, 'triton_poi_fused_addmm_relu_0', true);
    assert.match(triton, /Generated by Inductor for compiled function 1(?!,)/);
    assert.match(triton, /fuses\s+add, relu/);
    assert.match(triton, /your lines\s+anchors\.py:19/);
    assert.match(triton, /average\s+1\.13 µs\/step under the profiler/);
    const gemm =
      'void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_tn_align1>(cutlass_80_simt_sgemm_64x64_8x5_tn_align1::Params)';
    const eager = await select(page, 0, gemm, true);
    // the ops as the user knows them, the profiler's names in the hover
    assert.match(
      eager,
      /^Eager\s+ATen op: linear: nn\.Linear › addmm: Linear's matrix multiply with bias\s+In your function forward: anchors\.py:18$/,
    );
    assert.equal(await page.locator('.kernel-source .aten-op').getAttribute('title'), 'aten::linear › aten::addmm');
    // the kernel by what it does; its mangled name kept in what the profiler recorded
    assert.equal(await page.locator('.details h3').first().innerText(), 'matrix multiply (CUTLASS)');
    assert.ok((await page.locator('.details .raw-fields').textContent())!.includes(gemm));
    const before = (await record(page)).posted.length;
    await page.locator('.kernel-source button.link', { hasText: 'anchors.py:18' }).click();
    assert.deepEqual((await record(page)).posted.slice(before), [
      { type: 'reveal', file: '/root/demo/anchors.py', line: 18 },
    ]);
    await page.locator('.details-box').screenshot({ path: join(ARTIFACTS, 'kernel-source-eager.png') });
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });
});
