// Depth where a user looks, in headless Chromium on the real bundle: launch → kernel arrows followed by their links;
// a graph break shown in the timeline ("focus"), in its run's pane and beside the eager one, its times said as every
// time is. Ranges: timelineRange.test.ts; screenshots: timelinePage.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Report } from '../../extension/shared/report.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { LABEL_WIDTH } from '../../webview/timelineText.ts';
import { scanTraceFile } from '../../extension/node/trace/scanner.ts';
import { formatUs } from '../../extension/present/numbers.ts';
import { debug, holdBrowser, openWebview, post, postPanes, slicePoint, tracesSource } from './harness.ts';
import { dragRange, screenshot, usOf } from './timelinePage.ts';

const fixtures = join(__dirname, '..', 'fixtures');
const fixture = (name: string): string => join(fixtures, 'traces', name);
const browser = holdBrowser();

describe('timeline depth', () => {
  test('a cudaGraphLaunch draws arrows to its replay; following one selects the kernel, whose arrow comes back', async () => {
    const page = await openWebview(browser());
    const model = await scanTraceFile(fixture('mlp-reduce-overhead.trace.json'));
    await postPanes(page, 'ro', tracesSource('r'), [{ label: 'reduce-overhead', trace: model }]);
    await page.keyboard.press('0');
    await page.waitForFunction(
      () => (window as unknown as { __timelineDebug: { framesDrawn: number } }).__timelineDebug.framesDrawn > 1,
    );
    const point = await slicePoint(page, 0, 'cudaGraphLaunch', 1);
    // the label column cuts a long track name; hovering it shows all of it
    const box = (await page.locator('canvas').first().boundingBox())!;
    const launchTrack =
      model.tracks[model.track[[...model.name].findIndex((n) => model.names[n] === 'cudaGraphLaunch')]!]!.name;
    assert.ok(launchTrack.length > 20, `a long track name: ${launchTrack}`);
    await page.mouse.move(box.x + 10, point.y);
    await page.locator('.tooltip').waitFor({ state: 'visible' });
    assert.equal(await page.locator('.tooltip').innerText(), launchTrack);
    await page.mouse.click(point.x, point.y);
    await page.locator('.details').waitFor();
    let d = await debug(page);
    assert.equal(d.selected?.name, 'cudaGraphLaunch');
    assert.equal(d.selected?.arrows, 7);
    assert.match(await page.locator('.details').innerText(), /launches \(arrows on the timeline\): 7/);
    // the replay is marked on the timeline
    assert.ok(d.marks![0]!.some((m) => m.kind === 'cudagraph-replay'));
    // zoomed in around the launch (the wheel zooms at the pointer), to look at the arrows
    await page.mouse.move(point.x, point.y);
    for (let n = 0; n < 6; n++) await page.mouse.wheel(0, -300);
    await page.mouse.move(point.x, 5);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await screenshot(page, 'flow');
    // the replayed kernels by what they do ("matrix multiply (cuBLAS)"), never their mangled names, which the
    // links' hovers keep
    const links = await page.locator('.details a.follow').allInnerTexts();
    assert.ok(
      links.some((l) => l.includes('matrix multiply (cuBLAS)')),
      links.join('\n'),
    );
    assert.deepEqual(
      links.filter((l) => /xmma|cublas|cutlass|[<>]|_kernel/.test(l)),
      [],
    );
    const follow = page.locator('.details a.follow').filter({ hasText: 'CUDA-graph replay' }).first();
    const followed = (await follow.getAttribute('title'))!.split('\n')[0];
    await follow.click();
    d = await debug(page);
    assert.equal(d.selected?.name, followed);
    assert.equal(d.selected?.arrows, 1);
    assert.match(await page.locator('.details').innerText(), /launched by \(arrows on the timeline\): 1/);
    await page.close();
  });

  test("a graph break shown in the timeline: zoomed to its place in the run's trace, outlined, said", async () => {
    const page = await openWebview(browser());
    const report = JSON.parse(
      readFileSync(join(fixtures, 'reports', 'graphbreak-cpu', 'report.json'), 'utf8'),
    ) as Report;
    const model = await scanTraceFile(fixture('cpu-graphbreak-default.trace.json'));
    const source = { kind: 'report' as const, reportPath: '/r/graphbreak/report.json' };
    await post(page, { type: 'report', title: 'graphbreak', source, report, traces: 1 });
    await postPanes(page, 'graphbreak', source, [{ label: 'default', trace: model }]);
    // found after the first frame
    await page.waitForFunction(
      () => (window as unknown as { __timelineDebug: { marks: unknown } }).__timelineDebug.marks !== null,
    );
    const d0 = await debug(page);
    assert.deepEqual(
      d0
        .marks![0]!.filter((m) => m.kind === 'graph-break')
        .map((m) => m.compileId)
        .sort(),
      ['0/0', '0/0', '0/0', '1/0', '1/0', '1/0', '2/0', '2/0', '2/0'],
    );
    // the view opens on step 2, past step 1, which the compare leaves out: and a focus by the same rule (main.ts)
    assert.match(await page.locator('.pane-note').innerText(), /^step 2 in view \(of steps 1–3\)/);
    // aligned on step 2 first (where the view opens, past the warm-up): the break's first place is in step 1, which
    // the compare leaves out, so the view stays on step 2's, the first the compare counts (review 11 I3: step 1 in
    // view above a table of steps 2–3), its axis and note reading times into that step, not negative ones
    await page.evaluate((m) => window.postMessage(m, '*'), {
      type: 'focus',
      target: {
        kind: 'graph-break',
        compileIds: ['1/0'],
        label: 'Graph break: Unsupported Tensor.item() call',
        modes: ['default'],
      },
    });
    await page.locator('.focus-note').waitFor();
    const d = await debug(page);
    assert.deepEqual(d.focus, { pane: 0, places: 3 });
    // with a report, the pane's note says where the timed numbers are
    assert.match(
      await page.locator('.pane-note').innerText(),
      /^step 2 in view \(of steps 1–3\) · under the profiler \(slower than timed\)$/,
    );
    assert.match(
      await page.locator('.focus-note').innerText(),
      /^Graph break: Unsupported Tensor\.item\(\) call\. In default at .* \(the first of 3 places past step 1, a step the compare leaves out; all outlined\)\.$/,
    );
    // the view is around the break: narrower than the step it is in
    const step = model.steps[1]!;
    assert.ok(d.domain[1] - d.domain[0] < (step.end - step.start) / 2, `zoomed in: ${d.domain.join(' to ')}`);
    // the note says its time as every time is said (three significant digits, the unit that fits: "7.87 ms"), not
    // in the zoomed axis's digits ("7,869 µs": review 5A G4), and into the step the axis starts at, never negative
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const ticks = await page.evaluate(() =>
      (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts[0]!.texts.filter(
        (t) => t.role === 'tick',
      ).map((t) => t.text),
    );
    // the break's places outlined down the pane, but not over the profiled window's bar, as its band stops there
    // (review 10G G6: the dashed outlines ran down through "profiling" in both panes)
    const frames = await page.evaluate(
      () => (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts,
    );
    assert.ok(frames[0]!.outlines.length > 0, 'the found pane outlines its places');
    for (const [p, frame] of frames.entries()) {
      const row = frame.texts.find((t) => t.role === 'track' && t.text === 'profiled window')!;
      for (const box of frame.outlines)
        assert.ok(
          box.y + box.h <= row.y || box.y >= row.y + row.h,
          `pane ${p}: an outline from y ${box.y} to ${box.y + box.h} over the profiled window's row at ${row.y}`,
        );
    }
    const unit = (text: string): string | undefined => / (µs|ms|s)\b/.exec(text)?.[1];
    const at = / In default at (\S+ \S+?)[ .]/.exec(await page.locator('.focus-note').innerText())![1]!;
    assert.ok(ticks.length > 1, `ticks drawn: ${ticks.join(', ')}`);
    const atUs = usOf(at);
    assert.equal(formatUs(atUs), at, `"at ${at}" as formatUs says a time`);
    assert.ok(atUs > d.domain[0] && atUs < d.domain[1], `"at ${at}" in the view ${d.domain.join(' to ')}`);
    // and a range dragged there, its heading's times as the axis says them
    await dragRange(page, 0, 0.4, 0.7);
    const title = await page.locator('.range-summary h3').innerText();
    const units = [...title.matchAll(/\d (µs|ms|s)\b/g)].map((m) => m[1]);
    // each time kept whole where the heading wraps: never "9.65" over "s" (review 16 X6)
    const kept = await page.locator('.range-summary h3 span.nowrap').allInnerTexts();
    assert.deepEqual(
      kept.map((time) => / (µs|ms|s)$/.exec(time)?.[1]),
      units,
      `"${title}": its times ${kept.join(', ')}`,
    );
    assert.equal(
      await page
        .locator('.range-summary h3 span.nowrap')
        .first()
        .evaluate((e) => getComputedStyle(e).whiteSpace),
      'nowrap',
    );
    assert.ok(
      units.length === 3 && units.every((u) => u === unit(ticks[0]!)),
      `"${title}" over ticks ${ticks.join(', ')}`,
    );
    // its tables in the compare's words: its "CPU ops" are the outermost ops, the table of every level another name
    // (review 16 Y1: "CPU kernels" there, and "CPU ops" for every level, several times the compare's time)
    const captions = await page.locator('.range-summary caption').allInnerTexts();
    assert.match(
      captions[0]!,
      /^CPU ops: outermost ATen ops and Inductor's C\+\+ functions, as the compare counts them \(\d+ names\)/,
    );
    assert.match(captions[1]!, /^Every CPU slice, nested calls too \(\d+ names\)/);
    assert.match(
      await page.locator('.range-summary .hint').first().innerText(),
      /self = in no slice of another name nested in it/,
    );
    await screenshot(page, 'focus');
    // a compile id the trace never ran: said, nothing zoomed
    await page.evaluate((m) => window.postMessage(m, '*'), {
      type: 'focus',
      target: { kind: 'recompile', compileIds: ['9/3'], label: 'Recompile: x', modes: ['default'] },
    });
    await page.waitForFunction(() =>
      (document.querySelector('.focus-note')?.textContent ?? '').includes('Not in these traces'),
    );
    assert.equal((await debug(page)).focus, null);
    await page.close();
  });

  test('a graph break shown beside the eager pane: the eager pane shows the same code (its aten::item in view), not the same time of its own step', async () => {
    const page = await openWebview(browser(), { width: 1400, height: 900 });
    const report = JSON.parse(
      readFileSync(join(fixtures, 'reports', 'graphbreak-cpu', 'report.json'), 'utf8'),
    ) as Report;
    const [eager, compiled] = await Promise.all(
      ['eager', 'default'].map((m) => scanTraceFile(fixture(`cpu-graphbreak-${m}.trace.json`))),
    );
    const source = { kind: 'report' as const, reportPath: '/r/graphbreak/report.json' };
    await post(page, { type: 'report', title: 'graphbreak', source, report, traces: 2 });
    await postPanes(page, 'graphbreak', source, [
      { label: 'eager', trace: eager! },
      { label: 'default', trace: compiled! },
    ]);
    await page.waitForFunction(
      () => (window as unknown as { __timelineDebug: { marks: unknown } }).__timelineDebug.marks !== null,
    );
    // fitted to step 2, the pane with the shorter step says whose scale it is drawn on (timeline.test.ts)
    const onScale = async (): Promise<number> => {
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const notes = await page.locator('.pane-note').allInnerTexts();
      return notes.filter((n) => n.includes('on the scale of')).length;
    };
    assert.equal(await onScale(), 1);
    await page.evaluate((m) => window.postMessage(m, '*'), {
      type: 'focus',
      target: {
        kind: 'graph-break',
        compileIds: ['1/0'],
        label: 'Graph break: Tensor.item() … and starts a new graph after it.',
        modes: ['default'],
      },
    });
    await page.locator('.focus-note').waitFor();
    assert.deepEqual((await debug(page)).focus, { pane: 1, places: 3 });
    // zoomed to the break, no pane's step sets the scale: no pane says it is on another's (review 19Y Y6: "on the scale
    // of the pane above" under a focus note saying eager's axis reads default's time)
    assert.equal(await onScale(), 0);
    // the runner's label, a sentence, then where (review 8A A11: "…after it. — in default at …")
    assert.match(await page.locator('.focus-note').innerText(), /^Graph break: .* after it\. In default at /);
    // its axis reads default's time, and the note says so: the code's time on that axis, then on eager's own step,
    // step 2, the first the compare counts (review 11 I3), where the break's eager code (aten::view, aten::item)
    // runs once a step, named as its slice and the tables name it: "view", never "aten::view" (review 13 P5), said
    // as an op, in the op its row labels (review 14 S2: "eager's view is at…" read as the pane's view)
    assert.match(
      await page.locator('.focus-note').innerText(),
      /\. eager's axis now reads default's time\. On it, eager's view op, in flatten, is at [\d.]+ (µs|ms) \([\d.]+ (µs|ms) into eager's own step 2\)\.$/,
    );
    // both times as formatUs says them ("19.6 ms", not "19,643 µs": review 5A G4)
    const [, itemAt, intoStep] = / is at (\S+ \S+) \((\S+ \S+) into eager's own step 2/.exec(
      await page.locator('.focus-note').innerText(),
    )!;
    // its three digits kept, a zero too: "1.40 ms" read back is 1,400 µs, which formatUs says "1.40 ms" (review 12N N7)
    for (const time of [itemAt!, intoStep!]) assert.equal(formatUs(usOf(time)), time);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // the break's .item() in view, and none of the step's conv2d before it
    const width = (await page.locator('canvas').nth(0).boundingBox())!.width;
    const item = await page.evaluate(() =>
      (
        window as unknown as { __timelineDebug: { locate(p: number, n: string): { x: number } | null } }
      ).__timelineDebug.locate(0, 'aten::item'),
    );
    assert.ok(item && item.x > LABEL_WIDTH && item.x < width, `eager's aten::item at ${JSON.stringify(item)}`);
    assert.equal(
      await page.evaluate(() =>
        (
          window as unknown as { __timelineDebug: { locate(p: number, n: string): { x: number } | null } }
        ).__timelineDebug.locate(0, 'aten::conv2d'),
      ),
      null,
      'no conv2d in view',
    );
    await screenshot(page, 'focus-beside-eager');
    // Fit to step again: the shorter step's pane on the other's scale, said again
    await page.locator('.panes').focus();
    await page.keyboard.press('f');
    assert.equal(await onScale(), 1);
    await page.close();
  });
});
