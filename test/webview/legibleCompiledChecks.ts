// The checks of timelineLegible.test.ts for one case's compiler marks and compiled calls alone: 'cpu-graphbreak's
// graph breaks close together (named all or none, each over its own band), 'ddp's breaks and rank 1's recompile
// beside its collectives, and 'gpu-mlp's compiled calls, guards and folded Python row. What the ranks' waits say:
// legibleRanksChecks.ts.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { AXIS_HEIGHT } from '../../webview/timelineText.ts';
import { describeText } from './frameChecks.ts';
import type { Drawn } from './legibleCases.ts';

/** Per theme, the folded Python row's labels at the width drawn before: a wider panel has as many, as many whole
 *  (review 13 Q5: "torch: run (tri…" at 700 px was "Indu…" at 1400, beside "torc…" and "torch: …"). */
const foldedLabels = new Map<string, string[]>();

/** 'cpu-graphbreak', in each theme and view (the page: a band's hover). */
export async function graphBreakChecks({ frames, theme, view, width }: Drawn, page: Page): Promise<void> {
  // step 2's three breaks close together each labelled over its own band at 1400 px, in one scheme
  // (review 10G C10: the middle one had none, and "graph break" twice; review 13 P4: "break 1", "break 2",
  // "graph break in 3rd…")
  if (view === 'step' && width === 1400) {
    const steps = frames[1]!.lines.filter((l) => l.role === 'step').map((l) => l.x);
    const step3 = Math.max(...steps);
    const inStep2 = frames[1]!.texts.filter((t) => t.role === 'mark' && t.x < step3);
    const edges = [...new Set(frames[1]!.lines.filter((l) => l.role === 'band').map((l) => l.x))];
    const over = new Set(inStep2.map((t) => edges.find((x) => x <= t.x && t.x <= x + 12)));
    assert.equal(inStep2.length, 3, `${theme.name}: ${inStep2.map(describeText).join(' | ')}`);
    assert.ok(!over.has(undefined) && over.size === 3, `${theme.name}: over the bands' edges ${edges.join()}`);
    assert.ok(
      inStep2.every((t) => /^break \d$/.test(t.text)),
      inStep2.map((t) => t.text).join(' | '),
    );
    // each says which break it is, the 1st, 2nd and 3rd call's (review 11 I6: "graph…", "graph…")
    assert.deepEqual(
      inStep2.map((t) => /\d+/.exec(t.text)?.[0]).sort(),
      ['1', '2', '3'],
      inStep2.map((t) => t.text).join(' | '),
    );
  }
  // a graph break's band is labelled by the break first: a label cut to its lane keeps it (review 8B B1:
  // "Python b…", the break's line after it cut off), and says at least which break it is: "break 2", never
  // "graph…" (review 11 I6: "graph…", "graph…", "graph break in 3rd…" over step 2's three breaks), or with
  // no room for that, "break" alone inside its band (review 12 I6, below)
  for (const t of frames.flatMap((f) => f.texts.filter((x) => x.role === 'mark')))
    assert.match(
      t.text,
      /^(break|break \d+|graph break in \d+(st|nd|rd|th)\b.*)$/,
      `${theme.name}, ${view}: ${describeText(t)}`,
    );
  // a mark that ended before the view draws no band at the lane's left edge, nor a label there naming it
  // (review 10G C10: step 1's break, 390 µs before step 2's view, was a 3 px band and "graph break in 1st
  // compiled call in the step (Conv, …)" over step 2's first ops; step 2 begins with no break)
  if (view === 'step')
    for (const [p, frame] of frames.entries())
      for (const line of frame.lines.filter((l) => l.role === 'band'))
        assert.ok(
          line.x > frame.left + 3,
          `${theme.name}, ${view}, pane ${p}: a band's edge at x ${line.x}, the lane's left ${frame.left}`,
        );
  // the widest break band of the whole trace, in warm-up step 1 beside two thin bands a few px right of it
  // with no room for a label: named none at every width, as the step view names such a step's bands (review
  // 15 V2: "break 1", "break" at 560 px, over it beside two unnamed read as the step's one break; review 12
  // I6 asked it named: its hover says it)
  if (view === 'all') {
    const frame = frames[1]!;
    const edges = [...new Set(frame.lines.filter((l) => l.role === 'band').map((l) => Math.round(l.x)))];
    const [from, to] = edges
      .sort((a, b) => a - b)
      .map((x, k) => [x, edges[k + 1] ?? x] as const)
      .reduce((widest, pair) => (pair[1] - pair[0] > widest[1] - widest[0] ? pair : widest));
    const marks = frame.texts.filter((t) => t.role === 'mark');
    assert.deepEqual(
      marks.filter((t) => t.x > from - 2 && t.x < to).map(describeText),
      [],
      `${theme.name}: the widest band ${from}–${to}, the lane's labels ${marks.map(describeText).join(', ')}`,
    );
    // which break it is, the hover over it in the marks' lane says whole (the lane's middle: 8 px into it)
    const canvas = (await page.locator('canvas').nth(1).boundingBox())!;
    await page.mouse.move(canvas.x + from + 3, canvas.y + AXIS_HEIGHT + 8);
    const tooltip = page.locator('.tooltip');
    await tooltip.waitFor({ state: 'visible' });
    assert.match(await tooltip.innerText(), /^graph break in 1st compiled call in the step\b/, theme.name);
    await page.mouse.move(1, 1);
    await tooltip.waitFor({ state: 'hidden' });
  }
  // step 2's three breaks, under 20 px apart below 1400 px, named all or none (review 14 S7: "break 1" ran
  // over band 2, left blank between it and "break 3"): none there, each band's hover says it
  if (view === 'step') {
    const marks = frames[1]!.texts.filter((t) => t.role === 'mark');
    const edges = [...new Set(frames[1]!.lines.filter((l) => l.role === 'band').map((l) => l.x))];
    assert.equal(marks.length, width >= 1400 ? 3 : 0, marks.map(describeText).join(' | '));
    // (after a label's x, its own band's right edge, then the next band's left)
    for (const t of marks)
      assert.ok(
        !(edges.filter((x) => x > t.x).sort((a, b) => a - b)[1]! < t.x + t.w),
        `${theme.name}: ${describeText(t)} over the next band`,
      );
  }
}

/** 'ddp's marks, in each theme and view. */
export function ddpMarkChecks({ frames, theme, view, width }: Drawn): void {
  // a break's label never runs over a collective's time on another thread: that time is a wait, not its
  // eager code (review 9 D4: rank 0's "eager code between graphs" over its 2 s gloo:all_reduce)
  for (const [p, frame] of frames.entries())
    for (const t of frame.texts.filter((x) => x.role === 'mark'))
      for (const s of frame.texts.filter((x) => x.role === 'slice' && x.text.includes('all_r')))
        assert.ok(
          t.x + t.w <= s.x || t.x >= s.x + s.w,
          `${theme.name}, ${view}, pane ${p}: ${describeText(t)} over ${describeText(s)}`,
        );
  // a break's label over its own band alone, never over the next one too: "break 1" over two bands 1 px
  // apart read as one break named and one not (review 16 Y6/Z7)
  for (const [p, frame] of frames.entries())
    // (one counting them, "2 graph breaks", may lie over those it counts)
    for (const t of frame.texts.filter((x) => x.role === 'mark' && /^(?:graph )?break\b/.test(x.text))) {
      const edges = frame.lines.filter((l) => l.role === 'band');
      const own = edges.filter((l) => l.x <= t.x).sort((a, b) => b.x - a.x)[0];
      const under = new Set(
        edges.filter((l) => l.colour === own?.colour && l.x > t.x && l.x < t.x + t.w).map((l) => l.x),
      );
      // (its own band's right edge at most)
      assert.ok(under.size <= 1, `${theme.name}, ${view}, pane ${p}: ${describeText(t)} over ${under.size} edges`);
    }
  // rank 1's 2 s recompile, the stall, keeps its label over its band at every width: never the label of
  // step 1's break before it, "graph break …: eager code between graphs", run over it (review 10H H1); it
  // ran inside the 1st call, whose slice lies under its band: whose compile it is first at every width,
  // never "recompile 1", the slice's words (review 11 I1/J1/K2, 13 P2/Q1: "recompile 1, inside 1st compiled
  // call in the step" over "1st compiled call in the step, recompile 1" at 560 px)
  // Inductor's phases said one way down rank 1's stack: under the "Inductor" bar, whose they are said once,
  // none says "Inductor:" at any width, never "Inductor" / "Inductor: lower…" / "codegen and load" /
  // "Inductor: codegen" / "load module" down one column (review 19Y Y4, 19Z Z5)
  if (view === 'all') {
    const slices = frames[1]!.texts.filter((t) => t.role === 'slice').map((t) => t.text);
    assert.deepEqual(
      slices.filter((t) => t.startsWith('Inductor')),
      ['Inductor', 'Inductor'],
      `${theme.name}: ${slices.join(' | ')}`,
    );
    for (const phase of ['codegen and load', 'codegen', 'load module'])
      assert.equal(slices.filter((t) => t === phase).length, 2, `${theme.name}: ${slices.join(' | ')}`);
  }
  if (view === 'all') {
    const said = frames[1]!.texts.filter((t) => t.role === 'mark').map((t) => t.text);
    const stall = said.find(
      (t) =>
        /^4th (compiled )?call's recompile\b/.test(t) &&
        !t.includes('recompile 1') &&
        (width < 1400 || t === "4th compiled call's recompile (addmm), inside the 1st"),
    );
    assert.ok(
      stall && !said.some((t) => t.includes('between graphs')),
      `${theme.name}: rank 1's marks ${said.join(' | ')}`,
    );
    assert.ok(
      frames[1]!.texts.some((t) => t.role === 'slice' && t.text.startsWith('1st compiled call in the step')),
      `${theme.name}: the call under the stall's band`,
    );
    // (its own recompile left to its own band, 55 ms before: review 14 T2; the call that recompiled under
    // the band named as the band names it, the 4th, not the 1st alone: review 16Z, "a 4th inside a 1st")
    const under = frames[1]!.texts.filter(
      (t) => t.role === 'slice' && t.text.startsWith('1st compiled call in the step'),
    );
    assert.ok(
      under.some((t) => t.text === '1st compiled call in the step, where the 4th recompiled') &&
        !under.some((t) => t.text.includes('recompile 1')),
      `${theme.name}: the call under the stall's band: ${under.map((t) => t.text).join(' | ')}`,
    );
    // (which compile and the call it ran in, in the same words at every width, found above: review 10G G3,
    // "…, recompile 1" at 1400 px, a break's at 560; the 4th call's own name where it has room)
  }
}

/** 'gpu-mlp', in each theme and view (at the widths in order: its folded row's labels at the narrower one). */
export function gpuMlpChecks({ frames, theme, view, width }: Drawn): void {
  // a short whole word that fits is drawn, and autograd's record over its node keeps what it is: gpu-mlp's
  // "mm" (39 px at 560 px was blank), ranks' step 4 at 1400 px "backward…" over its blank node over "mm", not
  // two blank bars (review 15W W5)
  const slicesSaid = frames[0]!.texts.filter((t) => t.role === 'slice').map((t) => t.text);
  if (view === 'step') assert.ok(slicesSaid.includes('mm'), slicesSaid.join(' | '));
  // the guard check before call 1's compiled forward, 32 µs, 55 px at 1400: said by a short whole form
  // ("guards"), not left blank for want of room for "checking the compiled code's guards" (review 16Z Z6)
  // the tail after call 2's end line named as the lead-in is, where it fits whole (review 15W W9)
  if (view === 'all') {
    const steps = frames[0]!.texts.filter((t) => t.role === 'step').map((t) => t.text);
    assert.ok(width < 1400 || (steps.includes('before call 0') && steps.includes('after call 2')), steps.join(' | '));
    // (or "after it" right after call 2's own label where the name has no room: review 18Y Y10)
    assert.ok(
      !steps.some((t, k) => t.startsWith('after') && t !== 'after call 2' && steps[k - 1] !== 'call 2'),
      steps.join(' | '),
    );
  }
  if (view === 'step' && width === 1400)
    assert.ok(
      slicesSaid.some((t) => t.endsWith('guards')),
      slicesSaid.join(' | '),
    );
  foldedRowChecks({ frames, theme, view });
  // no slice's label starts within 16 px left of a step's line and runs across it: the folded stack's
  // "compiled module" starts at call 1's line, not 13 px before it, the line cut around it (review 17Z Z5)
  if (view === 'all') {
    const lines = [...new Set(frames[0]!.lines.filter((l) => l.role === 'step').map((l) => l.x))];
    // (a line through its first 16 px)
    const straddling = frames[0]!.texts.filter(
      (t) => t.role === 'slice' && lines.some((x) => x + 1 > t.x && x < t.x + Math.min(t.w, 16)),
    );
    assert.deepEqual(straddling.map(describeText), [], theme.name);
    // nor ends on or just past one, the line cut around its end: call 2's "compiled module" ran to the
    // "after call 2" line (review 18Z Z8)
    const toLine = frames[0]!.texts.filter(
      (t) => t.text === 'compiled module' && lines.some((x) => x < t.x + t.w + 1 && t.x + t.w - x <= 16 && x > t.x),
    );
    assert.deepEqual(toLine.map(describeText), [], theme.name);
    if (width >= 1400)
      assert.ok(
        frames[0]!.texts.some((t) => t.text === 'compiled module' && lines.some((x) => t.x > x && t.x - x <= 4)),
        theme.name,
      );
    // and call 2's is whole, as call 1's is, not cut to "compiled…" to end short of the "after call 2"
    // line: a px short of it, from the pixel after call 2's line (review 19Z Z4)
    if (width >= 1400) {
      const folded = frames[0]!.texts.filter((t) => t.role === 'slice' && t.text.startsWith('compiled m'));
      assert.deepEqual(
        folded.map((t) => t.text),
        ['compiled module', 'compiled module'],
        theme.name,
      );
      const [, call2] = folded.sort((a, b) => a.x - b.x);
      const [before, after] = [lines.filter((x) => x < call2!.x).at(-1)!, lines.find((x) => x > call2!.x)!];
      assert.ok(
        before + 1 <= call2!.x && call2!.x + call2!.w + 1 <= after,
        `${before} ${describeText(call2!)} ${after}`,
      );
    }
  }
}

/** 'gpu-mlp': its folded Python row's labels against those at the width drawn before, in each theme and view. */
function foldedRowChecks({ frames, theme, view }: Omit<Drawn, 'width'>): void {
  const row = frames[0]!.texts.find((t) => t.role === 'track' && t.text.startsWith('▸ Python'))!;
  const said = frames[0]!.texts
    .filter((t) => t.role === 'slice' && Math.abs(t.middle - row.middle) < 3)
    .map((t) => t.text);
  const key = `${theme.name}, ${view}`;
  const before = foldedLabels.get(key) ?? [];
  // a wider panel only adds words: each label of the narrower one said again, whole or cut later (review
  // 14 T6: "Inductor's compiled graph" at 560 px, "torch.mm" in its place at 700 px)
  const lost = before.filter((b) => !said.some((t) => t.startsWith(b.replace(/…$/, ''))));
  assert.deepEqual(lost, [], `${key}: the folded Python row's labels ${before.join(' | ')}, then ${said.join(' | ')}`);
  foldedLabels.set(key, said);
}
