// The timeline reads in VS Code's light, dark and high-contrast themes, at a panel's width beside the editor and at a
// wide one, on real traces: a 2-rank gloo job (three CPU threads per rank whose names begin alike), a CPU graph break
// (its marks' lane, ProfilerStep slices) and a GPU run. Checked from what each frame drew (the texts' boxes, inks and
// what lies under them, and the lines: frameLayout.ts), not from pixels: no text over another, no step or tick line
// through a text, nothing past the canvas or into the track names' column, the track names as drawn all different and
// whole (no "…": a thread by its name and id, the profiler's span by what it is; each saying what it holds), the step
// labels whole, each saying what it counts ("call 0 │ calls 1–2"; never "cal…" nor a bare "1–2"), each tick label right
// of its tick, every text at WCAG 4.5:1 against what lies under it (a slice's label against its slice), and no compiler
// code as a label (a compiled region by its code, or without Python stacks by its place, "1st compiled call in the step
// (Conv, BatchNorm, …)", never "Torch-Compiled Region: 0/0" nor "compiled function 1"; "Inductor's code of …", never
// "## Call CompiledFxGraph f73y…"; "fused kernel 1 of …", never "graph_1_cpp_fused_…"; PyTorch's wrappers by what they
// do, never "TorchDynamo Cache Lookup"), and a pane whose calls are named by their place says once that the trace has
// no Python stacks to name their code.
// The cases and what each shows: legibleCases.ts; the checks of one case alone: legibleRanksChecks.ts (the 2-rank
// jobs' waits) and legibleCompiledChecks.ts (the compiler's marks and calls); here, the checks every case shares.
// Screenshots of the panes: test-results/timeline-legible-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { contrast } from '../../webview/ink.ts';
import { LABEL_WIDTH } from '../../webview/timelineText.ts';
import { describeText, namespacesMixed, opsCut, problems, unlabelledSteps } from './frameChecks.ts';
import { sentTraces, type TraceMessage } from '../sentTraces.ts';
import { colourDistance, coloursOf, lastRowsShown, rowColours, screenshotPanes } from './canvasPixels.ts';
import { ARTIFACTS, errorsOf, holdBrowser, openWebview, postPanes } from './harness.ts';
import { CASES, WIDTHS, type Case, type Drawn } from './legibleCases.ts';
import { ddpMarkChecks, gpuMlpChecks, graphBreakChecks } from './legibleCompiledChecks.ts';
import { ddpChecks, lastRankChecks, ranksCameLast, ranksChecks } from './legibleRanksChecks.ts';
import { applyTheme, THEMES } from './themes.ts';

/** Per case, view and pane, the units its tick labels read in at the widths drawn so far: one (review 8B B6: "0 ms
 *  … 3 ms" at 560 px, "0 µs · 500 µs … 3,500 µs" at 1400 px). */
const tickUnits = new Map<string, Set<string>>();

const browser = holdBrowser();

/** The webview with the case's panes, and each pane's ops that have a namespace, without it ("addmm" of
 *  "aten::addmm"). */
async function open(c: Case, width: number): Promise<{ page: Page; bareOps: Set<string>[] }> {
  const page = await openWebview(browser(), { width, height: 900 });
  const content = await readTimelineSource(c.source);
  const panes = (await sentTraces(content)).map((m: TraceMessage) => m.pane);
  await postPanes(page, content.title, content.source, panes);
  const bareOps = panes.map(
    (p) => new Set(p.trace.names.flatMap((n) => /^[A-Za-z_][\w.]*::?(\w+)$/.exec(n)?.slice(1, 2) ?? [])),
  );
  return { page, bareOps };
}

/** Each pane's last frame, once the compiler's marks are found and a frame drawn with them. */
async function layouts(page: Page): Promise<FrameLayout[]> {
  await page.waitForFunction(
    () => (window as unknown as { __timelineDebug: { marks: unknown } }).__timelineDebug.marks,
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(
    () => (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts,
  );
}

test('WCAG contrast as the rules are checked: black on white 21:1, a colour on itself 1:1', () => {
  assert.equal(contrast([0, 0, 0, 1], [255, 255, 255, 1]), 21);
  assert.equal(contrast([26, 133, 255, 1], [26, 133, 255, 1]), 1);
  // white on VS Code's light charts-blue: 3.6, under 4.5
  assert.ok(Math.abs(contrast([255, 255, 255, 1], [26, 133, 255, 1]) - 3.6) < 0.05);
});

describe('the timeline in light, dark and high-contrast themes', () => {
  for (const c of CASES)
    for (const width of WIDTHS)
      test(`${c.name} at ${width} px: no text over another or crossed by a line, none clipped, track names distinct, 4.5:1`, async () => {
        const { page, bareOps } = await open(c, width);
        // why its compiled calls are named by their order: in the note's tooltip, the note one short line
        const notes = await page
          .locator('.pane .pane-note')
          .evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
        assert.deepEqual(
          notes.map((n) => n.includes('the trace has no Python stacks to name their code')),
          c.noStacks,
          notes.join('\n'),
        );
        if (c.name === 'ranks') await ranksCameLast(page);
        for (const theme of THEMES) {
          await applyTheme(page, theme);
          for (const view of ['step', 'all'] as const) {
            if (view === 'all') await page.keyboard.press('0');
            const frames = await layouts(page);
            const drawn: Drawn = { frames, theme, view, width };
            const colours = await coloursOf(page, frames);
            const shot = await screenshotPanes(
              page,
              path.join(ARTIFACTS, `timeline-legible-${c.name}-${width}-${theme.name}-${view}.png`),
            );
            // the screenshot shows each pane's last row as its canvas drew it (review 11 I2/J4/K4: rank 1's gloo
            // threads and profiled window blank below the viewport at 560 and 700 px, though drawn)
            assert.deepEqual(await lastRowsShown(browser(), page, frames, shot), [], `${theme.name}, ${view}`);
            const stepNotes = await page.locator('.pane .pane-note').allTextContents();
            if (view === 'step')
              assert.deepEqual(
                stepNotes.map((n) => /^(.+?) in view/.exec(n)?.[1]),
                stepNotes.map(() => c.opens),
                `${theme.name}: ${stepNotes.join(' | ')}`,
              );
            // the warm-up step named alike on every ruler that has it: "warm-up step 1" in all or none, never in
            // eager's over default's "step 1" where its room is narrower (review 10 G9)
            const warmUpSaid = frames.flatMap((f, p) =>
              stepNotes[p]!.includes('is the warm-up')
                ? [f.texts.some((t) => t.role === 'step' && t.text.startsWith('warm-up'))]
                : [],
            );
            assert.ok(new Set(warmUpSaid).size <= 1, `${theme.name}, ${view}: ${stepNotes.join(' | ')}`);
            frames.forEach((frame, p) => {
              const where = `${theme.name}, ${view}, pane ${p}`;
              assert.deepEqual(unlabelledSteps(frame, stepNotes[p]!), [], `${where}: ${stepNotes[p]}`);
              assert.ok(
                frame.lines.some((l) => l.role === 'step'),
                `${where}: draws step lines`,
              );
              assert.deepEqual(problems(frame, colours), [], where);
              assert.deepEqual(namespacesMixed(frame, bareOps[p]!), [], where);
              assert.deepEqual(opsCut(frame, bareOps[p]!), [], where);
              const units = tickUnits.get(`${c.name}, ${view}, pane ${p}`) ?? new Set<string>();
              for (const t of frame.texts.filter((x) => x.role === 'tick')) units.add(t.text.split(' ')[1]!);
              tickUnits.set(`${c.name}, ${view}, pane ${p}`, units);
              assert.ok(
                units.size <= 1,
                `${where} at ${width} px and the widths before: ticks in ${[...units].join(', ')}`,
              );
            });
            // a mark's label begins at its band's left edge (or just past a label there), else at the lane's left
            // where its band began before the view: never far left of its band, over other ops (review 9 D5/E3:
            // "graph break" 300–800 µs before its stripe)
            for (const [p, frame] of frames.entries())
              for (const t of frame.texts.filter((x) => x.role === 'mark')) {
                const edges = frame.lines.filter((l) => l.role === 'band').map((l) => l.x);
                assert.ok(
                  t.x <= LABEL_WIDTH + 8 || edges.some((x) => x <= t.x && t.x <= x + 14),
                  `${theme.name}, ${view}, pane ${p}: ${describeText(t)} with its band's edges at ${edges.join(', ')}`,
                );
              }
            // each compile phase in one row: no slice label repeated in the row right under it, at its x (review 9E
            // E4's rest: rank 1's "Dynamo: whole frame", "backend compile", … each in two stacked rows)
            for (const [p, frame] of frames.entries()) {
              // (whole labels: two names cut alike, "max_…" over "max_…", are two ops)
              const slices = frame.texts.filter((t) => t.role === 'slice' && !t.text.endsWith('…'));
              const twins = slices.filter((t) =>
                slices.some((u) => u.text === t.text && Math.abs(u.x - t.x) <= 2 && u.y > t.y && u.y - t.y <= 16),
              );
              assert.deepEqual(twins.map(describeText), [], `${theme.name}, ${view}, pane ${p}: a phase in two rows`);
            }
            // no band's edge or tint runs through a slice's label: where an edge's line is cut around a label, the
            // label's row reads alike either side of it (review 10G D10: the gold edges through "2nd compiled call in
            // the step (s…")
            for (const [p, frame] of frames.entries()) {
              const bandAt = (x: number, from: number, to: number): boolean =>
                frame.lines.some((l) => l.role === 'band' && l.x === x && l.y0 >= from && l.y0 <= to);
              // (the profiled window's row has no band: clearOfBands)
              const window = frame.texts.find((x) => x.role === 'track' && x.text === 'profiled window');
              for (const t of frame.texts.filter((x) => x.role === 'slice' && x.middle !== window?.middle))
                for (const edge of frame.lines.filter(
                  (l) =>
                    l.role === 'band' &&
                    l.x > t.x + 4 &&
                    l.x < t.x + t.w - 4 &&
                    l.y1 >= t.y - 2 &&
                    l.y1 <= t.y &&
                    bandAt(l.x, t.y + t.h, t.y + t.h + 2),
                )) {
                  const [left, right] = await rowColours(page, p, edge.x, t.middle);
                  assert.ok(
                    colourDistance(left, right) < 8,
                    `${theme.name}, ${view}, pane ${p}: ${describeText(t)} at the band's edge ${edge.x}: ${left.join()} | ${right.join()}`,
                  );
                }
            }
            // a band stops at the profiled window's row and goes on under it: its one bar, the pane's width, read
            // as covered by the break (review 8B B7)
            for (const [p, frame] of frames.entries()) {
              const row = frame.texts.find((t) => t.role === 'track' && t.text === 'profiled window');
              for (const line of frame.lines.filter((l) => l.role === 'band' && row))
                assert.ok(
                  line.y1 <= row!.y || line.y0 >= row!.y + row!.h,
                  `${theme.name}, ${view}, pane ${p}: a band's edge at x ${line.x} from y ${line.y0} to ${line.y1} over the profiled window's row`,
                );
            }
            if (c.inView?.[view])
              assert.deepEqual(
                // top to bottom, as the column reads
                frames.map((f) =>
                  f.texts
                    .filter((t) => t.role === 'track' || t.role === 'idle')
                    .sort((a, b) => a.y - b.y)
                    .map((t) => t.text),
                ),
                c.inView[view],
                `${theme.name}, ${view}`,
              );
            // (cpu-graphbreak's steps hold breaks too close for a label each, named none below 1400 px and in the
            // whole trace at every width: review 14 S7, 15 V2)
            const breaksNamed = c.name !== 'cpu-graphbreak' || (view === 'step' && width >= 1400);
            for (const role of c.roles.filter(
              (r) => r !== 'mark' || ((view === 'step' || width >= 700) && breaksNamed),
            ))
              // (at 560 px the whole trace leaves no room beside a break's mark for its label: none, the hover
              // says it, rather than a label moved off its band, review 9 D5)
              assert.ok(
                frames.some((f) => f.texts.some((t) => t.role === role)),
                `${theme.name}, ${view}: draws ${role} texts`,
              );
            // (at 560 px the step's slices may be too narrow for a label: what is drawn is checked above)
            if (view === 'step' && width >= 700)
              assert.ok(
                frames.some((f) => f.texts.some((t) => t.role === 'slice' && c.sliceLabel.test(t.text))),
                `${theme.name}: a slice labelled ${c.sliceLabel}`,
              );
            // in the whole trace's view none: nothing is cut there
            if (view === 'all')
              assert.deepEqual(
                frames.flatMap((f) => f.texts.filter((t) => t.role === 'cut')),
                [],
              );
            // the checks of one case alone (legibleRanksChecks.ts, legibleCompiledChecks.ts), after those all share
            if (c.name === 'ranks') ranksChecks(drawn);
            if (c.name === 'ddp') {
              ddpChecks(drawn);
              ddpMarkChecks(drawn);
            }
            if (c.name === 'ranks' || c.name === 'ddp') lastRankChecks(drawn);
            if (c.name === 'cpu-graphbreak') await graphBreakChecks(drawn, page);
            if (c.name === 'gpu-mlp') gpuMlpChecks(drawn);
            if (view === 'all') await page.keyboard.press('f');
          }
        }
        assert.deepEqual(errorsOf(page), []);
        await page.close();
      });
});
