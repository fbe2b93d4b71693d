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
// Screenshots of the panes: test-results/timeline-legible-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import type { TimelineSource } from '../../extension/shared/protocol.ts';
import type { FrameLayout, TextRole } from '../../webview/frameLayout.ts';
import { contrast } from '../../webview/ink.ts';
import { AXIS_HEIGHT, LABEL_WIDTH } from '../../webview/timelineText.ts';
import { ROW_HEIGHT } from '../../webview/timelineRows.ts';
import { waitingInForms } from '../../webview/timelineWords.ts';
import { describeText, namespacesMixed, opsCut, problems, unlabelledSteps } from './frameChecks.ts';
import { sentTraces, type TraceMessage } from '../sentTraces.ts';
import { colourDistance, coloursOf, lastRowsShown, rowColours, screenshotPanes } from './canvasPixels.ts';
import { ARTIFACTS, errorsOf, holdBrowser, openWebview, postPanes, ROOT } from './harness.ts';
import { applyTheme, THEMES } from './themes.ts';

const GPU_MLP_TRACKS = [
  'profiler overhead',
  'ops · thread 1661 (python3)',
  'profiled window',
  'GPU 0 · stream 7',
  // the threads Kineto has no id for, each its own stack, named by its role (review 10 G4: ten rows of two threads
  // under one name, nothing saying where one ends)
  "▸ tqdm's monitor",
  "▸ Inductor's compile workers",
  '▸ Python stack · thread 1661',
];

const TRACES = path.join(ROOT, 'test', 'fixtures', 'traces');

interface Case {
  name: string;
  source: TimelineSource;
  /** roles of the texts each view draws (in some pane) */
  roles: TextRole[];
  /** a slice label the step's view draws (ProfilerStep's: the one the e2e screenshots showed unreadable) */
  sliceLabel: RegExp;
  /** per pane, whether its note says the trace has no Python stacks to name its compiled calls' code */
  noStacks: boolean[];
  /** per view, per pane, the track names drawn (saying what each holds, never "CPU · thread 0") and the count of the
   *  idle ones: a track with no event in view is counted, not drawn as an empty row */
  inView?: Partial<Record<'step' | 'all', string[][]>>;
  /** the step every pane's note says the step view opens on, that step alone ("step 2 in view") */
  opens: string;
}

const CASES: Case[] = [
  {
    name: 'ranks',
    source: {
      kind: 'ranks',
      tracePaths: ['rank0', 'rank1'].map((r) => path.join(TRACES, 'ranks', 'straggler', `${r}.trace.json`)),
    },
    roles: ['tick', 'step', 'slice', 'track'],
    sliceLabel: /all_reduce/,
    noStacks: [false, false],
    opens: 'step 2',
    // step 2, the first (its steps all alike, none a warm-up to pass: review 9 D6): rank 0's all_reduce on one of its two gloo threads,
    // the other idle, by its name (review 8B B12: "1 thread idle here" said not which); rank 1's on one too. The threads
    // that run the collectives by that role on both ranks, though the OS named rank 0's "python3" and rank 1's
    // "pt_gloo_runloop" (review 8A A16)
    inView: {
      step: [
        // the idle thread in its place, as the whole trace's view has it (review 15W W7)
        ['thread 28223 (python3)', 'gloo thread 28228: nothing here', 'gloo thread 28229', 'profiled window'],
        ['thread 28224 (python3)', 'gloo thread 28230', 'gloo thread 28231: nothing here', 'profiled window'],
      ],
      all: [
        ['thread 28223 (python3)', 'gloo thread 28228', 'gloo thread 28229', 'profiled window'],
        ['thread 28224 (python3)', 'gloo thread 28230', 'gloo thread 28231', 'profiled window'],
      ],
    },
  },
  {
    // a 2-rank DDP job on CPU: step 1 of 4 ms and step 2 of 2.3 s, step 3 at the pane's right edge (review s29: "step
    // 1 … 3", step 2 in no label and a lone "3" at the edge)
    name: 'ddp',
    source: {
      kind: 'ranks',
      tracePaths: ['rank0', 'rank1'].map((r) =>
        path.join(ROOT, 'test', 'fixtures', 'reports', 'ddp-ranks-cpu', 'ranks', r, `${r}.trace.json.gz`),
      ),
    },
    roles: ['tick', 'step', 'mark', 'slice', 'track'],
    sliceLabel: /all_reduce/,
    noStacks: [true, true],
    // each rank's step 1, not rank 0's step 2 begun beside rank 1's longer step 1 (review 10 B10)
    opens: 'step 1',
    // the whole trace: every track of each rank, rank 1's under its 2 s recompile's stack of 25 rows too (review 11
    // I2: its gloo threads and profiled window missing at 560 px)
    inView: {
      all: [
        ['thread 1019 (python3)', 'gloo thread 1028', 'gloo thread 1029', 'profiled window'],
        ['thread 1020 (python3)', 'gloo thread 1030', 'gloo thread 1031', 'profiled window'],
      ],
    },
  },
  {
    name: 'cpu-graphbreak',
    source: {
      kind: 'traces',
      tracePaths: ['eager', 'default'].map((m) => path.join(TRACES, `cpu-graphbreak-${m}.trace.json`)),
    },
    roles: ['tick', 'step', 'mark', 'slice', 'track'],
    // no Python stacks: a compiled call by its place and what it runs
    sliceLabel: /^1st compiled/,
    noStacks: [false, true],
    // past the warm-up, eager's step 2 alone beside default's shorter one: never default's "steps 2–3" (review 10 B10)
    opens: 'step 2',
  },
  {
    name: 'gpu-mlp',
    source: { kind: 'traces', tracePaths: [path.join(TRACES, 'mlp-default.trace.json')] },
    roles: ['tick', 'step', 'slice', 'track'],
    // call 1 fitted, the first past the warm-up (review 31 B2), is its compiled call: its ops are narrow, the call is
    // labelled
    sliceLabel: /^compiled forward$/,
    // Kineto's thread 0 holds other threads' Python stacks; its two tracks of its own: its overhead and its window
    // the Python frames last, each thread's stack folded to a row: the launches and kernels come first
    // the whole trace holds every track: the profiler's own work (a CUPTI buffer request) in call 0, the warm-up;
    // call 1 has none of it, its track said idle
    inView: {
      step: [['profiler overhead: nothing here', ...GPU_MLP_TRACKS.slice(1)]],
      all: [GPU_MLP_TRACKS],
    },
    noStacks: [false],
    opens: 'call 1',
  },
];
const WIDTHS = [560, 700, 1400];

/** Per case, view and pane, the units its tick labels read in at the widths drawn so far: one (review 8B B6: "0 ms
 *  … 3 ms" at 560 px, "0 µs · 500 µs … 3,500 µs" at 1400 px). */
const tickUnits = new Map<string, Set<string>>();

/** Per theme, the folded Python row's labels at the width drawn before: a wider panel has as many, as many whole
 *  (review 13 Q5: "torch: run (tri…" at 700 px was "Indu…" at 1400, beside "torc…" and "torch: …"). */
const foldedLabels = new Map<string, string[]>();

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
        // rank 1's bars of steps 3 and 4 too narrow for "last" at every width: its title says it came last in all
        // three steps rank 0 waited for it in (review 16Z Z3)
        if (c.name === 'ranks') {
          await page.waitForFunction(() => document.querySelectorAll('.pane-came-last')[1]?.textContent);
          assert.deepEqual(await page.locator('.pane-came-last').allInnerTexts(), [
            '',
            ' · came last to all_reduce in steps 2–4',
          ]);
        }
        for (const theme of THEMES) {
          await applyTheme(page, theme);
          for (const view of ['step', 'all'] as const) {
            if (view === 'all') await page.keyboard.press('0');
            const frames = await layouts(page);
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
            // each track as deep as its slices in the step shown: rank 1's step 1 stack as deep as rank 0's, not
            // sized for its 2 s recompile in step 2 (review 10 F9: 350 px of empty rows above its gloo thread)
            if (c.name === 'ddp' && view === 'step')
              assert.ok(
                frames[1]!.height <= frames[0]!.height + 2 * ROW_HEIGHT,
                frames.map((f) => f.height).join(', '),
              );
            // a short whole word that fits is drawn, and autograd's record over its node keeps what it is: gpu-mlp's
            // "mm" (39 px at 560 px was blank), ranks' step 4 at 1400 px "backward…" over its blank node over "mm", not
            // two blank bars (review 15W W5)
            const slicesSaid = frames[0]!.texts.filter((t) => t.role === 'slice').map((t) => t.text);
            if (c.name === 'gpu-mlp' && view === 'step') assert.ok(slicesSaid.includes('mm'), slicesSaid.join(' | '));
            // the guard check before call 1's compiled forward, 32 µs, 55 px at 1400: said by a short whole form
            // ("guards"), not left blank for want of room for "checking the compiled code's guards" (review 16Z Z6)
            // the tail after call 2's end line named as the lead-in is, where it fits whole (review 15W W9)
            if (c.name === 'gpu-mlp' && view === 'all') {
              const steps = frames[0]!.texts.filter((t) => t.role === 'step').map((t) => t.text);
              assert.ok(
                width < 1400 || (steps.includes('before call 0') && steps.includes('after call 2')),
                steps.join(' | '),
              );
              // (or "after it" right after call 2's own label where the name has no room: review 18Y Y10)
              assert.ok(
                !steps.some((t, k) => t.startsWith('after') && t !== 'after call 2' && steps[k - 1] !== 'call 2'),
                steps.join(' | '),
              );
            }
            if (c.name === 'gpu-mlp' && view === 'step' && width === 1400)
              assert.ok(
                slicesSaid.some((t) => t.endsWith('guards')),
                slicesSaid.join(' | '),
              );
            if (c.name === 'ranks' && view === 'all' && width === 1400)
              assert.ok(
                slicesSaid.includes('mm') && slicesSaid.some((t) => t.startsWith('backward')),
                slicesSaid.join(' | '),
              );
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
            if (c.name === 'gpu-mlp') {
              const row = frames[0]!.texts.find((t) => t.role === 'track' && t.text.startsWith('▸ Python'))!;
              const said = frames[0]!.texts
                .filter((t) => t.role === 'slice' && Math.abs(t.middle - row.middle) < 3)
                .map((t) => t.text);
              const key = `${theme.name}, ${view}`;
              const before = foldedLabels.get(key) ?? [];
              // a wider panel only adds words: each label of the narrower one said again, whole or cut later (review
              // 14 T6: "Inductor's compiled graph" at 560 px, "torch.mm" in its place at 700 px)
              const lost = before.filter((b) => !said.some((t) => t.startsWith(b.replace(/…$/, ''))));
              assert.deepEqual(
                lost,
                [],
                `${key}: the folded Python row's labels ${before.join(' | ')}, then ${said.join(' | ')}`,
              );
              foldedLabels.set(key, said);
            }
            // step 2's three breaks close together each labelled over its own band at 1400 px, in one scheme
            // (review 10G C10: the middle one had none, and "graph break" twice; review 13 P4: "break 1", "break 2",
            // "graph break in 3rd…")
            if (c.name === 'cpu-graphbreak' && view === 'step' && width === 1400) {
              const steps = frames[1]!.lines.filter((l) => l.role === 'step').map((l) => l.x);
              const step3 = Math.max(...steps);
              const inStep2 = frames[1]!.texts.filter((t) => t.role === 'mark' && t.x < step3);
              const edges = [...new Set(frames[1]!.lines.filter((l) => l.role === 'band').map((l) => l.x))];
              const over = new Set(inStep2.map((t) => edges.find((x) => x <= t.x && t.x <= x + 12)));
              assert.equal(inStep2.length, 3, `${theme.name}: ${inStep2.map(describeText).join(' | ')}`);
              assert.ok(
                !over.has(undefined) && over.size === 3,
                `${theme.name}: over the bands' edges ${edges.join()}`,
              );
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
            if (c.name === 'cpu-graphbreak')
              for (const t of frames.flatMap((f) => f.texts.filter((x) => x.role === 'mark')))
                assert.match(
                  t.text,
                  /^(break|break \d+|graph break in \d+(st|nd|rd|th)\b.*)$/,
                  `${theme.name}, ${view}: ${describeText(t)}`,
                );
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
            // a mark that ended before the view draws no band at the lane's left edge, nor a label there naming it
            // (review 10G C10: step 1's break, 390 µs before step 2's view, was a 3 px band and "graph break in 1st
            // compiled call in the step (Conv, …)" over step 2's first ops; step 2 begins with no break)
            if (c.name === 'cpu-graphbreak' && view === 'step')
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
            if (c.name === 'cpu-graphbreak' && view === 'all') {
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
            // a break's label never runs over a collective's time on another thread: that time is a wait, not its
            // eager code (review 9 D4: rank 0's "eager code between graphs" over its 2 s gloo:all_reduce)
            if (c.name === 'ddp')
              for (const [p, frame] of frames.entries())
                for (const t of frame.texts.filter((x) => x.role === 'mark'))
                  for (const s of frame.texts.filter((x) => x.role === 'slice' && x.text.includes('all_r')))
                    assert.ok(
                      t.x + t.w <= s.x || t.x >= s.x + s.w,
                      `${theme.name}, ${view}, pane ${p}: ${describeText(t)} over ${describeText(s)}`,
                    );
            // a break's label over its own band alone, never over the next one too: "break 1" over two bands 1 px
            // apart read as one break named and one not (review 16 Y6/Z7)
            if (c.name === 'ddp')
              for (const [p, frame] of frames.entries())
                // (one counting them, "2 graph breaks", may lie over those it counts)
                for (const t of frame.texts.filter((x) => x.role === 'mark' && /^(?:graph )?break\b/.test(x.text))) {
                  const edges = frame.lines.filter((l) => l.role === 'band');
                  const own = edges.filter((l) => l.x <= t.x).sort((a, b) => b.x - a.x)[0];
                  const under = new Set(
                    edges.filter((l) => l.colour === own?.colour && l.x > t.x && l.x < t.x + t.w).map((l) => l.x),
                  );
                  // (its own band's right edge at most)
                  assert.ok(
                    under.size <= 1,
                    `${theme.name}, ${view}, pane ${p}: ${describeText(t)} over ${under.size} edges`,
                  );
                }
            // rank 1's 2 s recompile, the stall, keeps its label over its band at every width: never the label of
            // step 1's break before it, "graph break …: eager code between graphs", run over it (review 10H H1); it
            // ran inside the 1st call, whose slice lies under its band: whose compile it is first at every width,
            // never "recompile 1", the slice's words (review 11 I1/J1/K2, 13 P2/Q1: "recompile 1, inside 1st compiled
            // call in the step" over "1st compiled call in the step, recompile 1" at 560 px)
            // Inductor's phases said one way down rank 1's stack: under the "Inductor" bar, whose they are said once,
            // none says "Inductor:" at any width, never "Inductor" / "Inductor: lower…" / "codegen and load" /
            // "Inductor: codegen" / "load module" down one column (review 19Y Y4, 19Z Z5)
            if (c.name === 'ddp' && view === 'all') {
              const slices = frames[1]!.texts.filter((t) => t.role === 'slice').map((t) => t.text);
              assert.deepEqual(
                slices.filter((t) => t.startsWith('Inductor')),
                ['Inductor', 'Inductor'],
                `${theme.name}: ${slices.join(' | ')}`,
              );
              for (const phase of ['codegen and load', 'codegen', 'load module'])
                assert.equal(slices.filter((t) => t === phase).length, 2, `${theme.name}: ${slices.join(' | ')}`);
            }
            if (c.name === 'ddp' && view === 'all') {
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
            // the gloo threads whose all_reduces (≤ 765 µs) are below a pixel in the whole 2.2 s say so in their
            // rows, not left empty as lost data (review 17Z Z6)
            if (c.name === 'ddp' && view === 'all')
              assert.deepEqual(
                frames.map((f) =>
                  f.texts
                    .filter((t) => t.role === 'unseen')
                    .map((u) => {
                      const track = f.texts.find((t) => t.role === 'track' && Math.abs(t.middle - u.middle) < 1);
                      return `${track?.text}: ${u.text}`;
                    }),
                ),
                [
                  ['gloo thread 1029: too short to see here'],
                  ['gloo thread 1030: too short to see here', 'gloo thread 1031: too short to see here'],
                ],
                `${theme.name}`,
              );
            // no slice's label starts within 16 px left of a step's line and runs across it: the folded stack's
            // "compiled module" starts at call 1's line, not 13 px before it, the line cut around it (review 17Z Z5)
            if (c.name === 'gpu-mlp' && view === 'all') {
              const lines = [...new Set(frames[0]!.lines.filter((l) => l.role === 'step').map((l) => l.x))];
              // (a line through its first 16 px)
              const straddling = frames[0]!.texts.filter(
                (t) => t.role === 'slice' && lines.some((x) => x + 1 > t.x && x < t.x + Math.min(t.w, 16)),
              );
              assert.deepEqual(straddling.map(describeText), [], theme.name);
              // nor ends on or just past one, the line cut around its end: call 2's "compiled module" ran to the
              // "after call 2" line (review 18Z Z8)
              const toLine = frames[0]!.texts.filter(
                (t) =>
                  t.text === 'compiled module' &&
                  lines.some((x) => x < t.x + t.w + 1 && t.x + t.w - x <= 16 && x > t.x),
              );
              assert.deepEqual(toLine.map(describeText), [], theme.name);
              if (width >= 1400)
                assert.ok(
                  frames[0]!.texts.some(
                    (t) => t.text === 'compiled module' && lines.some((x) => t.x > x && t.x - x <= 4),
                  ),
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
            // step 2's three breaks, under 20 px apart below 1400 px, named all or none (review 14 S7: "break 1" ran
            // over band 2, left blank between it and "break 3"): none there, each band's hover says it
            if (c.name === 'cpu-graphbreak' && view === 'step') {
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
            // a step's stretch with no op recorded on its thread is said in it, not left blank (review 5A: rank 1's
            // 40 ms before its all_reduce)
            // (at 560 and 700 px shorter, never dropped where its time fits: review 7B N11; nor in the whole trace's
            // view, one before each step's ops: review 8B B8), in words meaning the same at every width, never "no op ·
            // 40.2 ms" (review 10 F8) nor "40.2 ms, no op", a no-op (review 15 W6/U6), its time kept: never "no op
            // recorded…" (review 11 I7) nor its time alone (review 16 Z4: beside rank 0's "40.2 ms wait", read as a wait)
            if (c.name === 'ranks') {
              const gaps = frames[1]!.texts.filter((t) => t.role === 'gap').map((t) => t.text);
              // one word in a pane (review 17 X5: ", no op recorded", "unrecorded" and "gap" for one thing): the
              // whole trace at 560 px, three 100 px stretches with no room for "unrecorded": unlabelled, never "idle"
              // (review 19 X1/Y1/Z1: a process's Python time between ops read as idle)
              const form = /^[\d.]+ ms unrecorded$/;
              const where = `${theme.name}, ${view}: rank 1's stretches with no op, ${gaps.join(', ')}`;
              const count = view === 'step' ? 1 : width < 700 ? 0 : 3;
              assert.equal(gaps.length, count, where);
              assert.equal(gaps.filter((t) => form.test(t)).length, count, where);
            }
            // rank 0 waited in its all_reduce on gloo's thread meanwhile: that is an op of its process, not a stretch
            // with none (review 7A K1: "no op recorded · 44.5 ms" beside the rank table's 3.72 ms); its thread said
            // waiting in it for rank 1, the job's one other rank (review 12 L4/N5: "for another rank"), with what rank
            // 1 did meanwhile where its trace shows it, as a compile is said: its 40.2 ms with no op recorded
            if (c.name === 'ranks' && view === 'step') {
              const gaps = frames[0]!.texts.filter((x) => x.role === 'gap').map((t) => t.text);
              for (const t of gaps.filter((g) => g.includes('no op') && !g.includes('waiting')))
                assert.ok(Number(/^([\d.]+) ms/.exec(t)?.[1]) < 10, `${theme.name}: rank 0's "${t}"`);
              // whole at 1400 px, said as rank 1's (review 13 P1: "…, no op recorded there" read as rank 0's); at 700
              // for the rank alone (the hover says the cause); narrower, fewer whole words, its time first
              const [wait, ...more] = gaps.filter((g) => g.includes('wait'));
              // (rank 1 recorded no op through part of the wait only, then ran its backward and all_reduce: how much,
              // review 14 T4)
              const idle = /, which recorded no op for ([\d.]+ ms) of the wait$/.exec(wait ?? '')?.[1] ?? 'all';
              // (its gap's time first, the wait as part of it: the gap is longer, review 17Z Z3; the times aside)
              const times = (text: string): string => text.replace(/[\d.]+ (?:ms|µs)/g, 'T');
              const forms = waitingInForms(
                'all_reduce',
                1000,
                `rank 1, which recorded no op for ${idle} of the wait`,
                2000,
                500,
              ).map(times);
              assert.ok(
                wait !== undefined &&
                  !more.length &&
                  /^[\d.]+ ms idle, [\d.]+ ms /.test(wait) &&
                  forms.slice(0, width >= 1400 ? 1 : 3).includes(times(wait)),
                `${theme.name}: rank 0's ${gaps.join(', ')}`,
              );
              // the wait for rank 1 until rank 1 reached the all_reduce, 36.8 ms of rank 0's 41.7 ms in it, the rest
              // the collective's own (review 18Z Z1: "41.7 ms of it waiting in all_reduce for rank 1")
              assert.match(wait, /\b36\.8 ms of (?:it|that) waiting for rank 1\b/, theme.name);
              assert.doesNotMatch(wait, /41\.7 ms (?:of it )?waiting/, theme.name);
            }
            // in the whole trace, rank 0's waits said at every width, in whole words (review 13 Q2: none at 560 px,
            // step 4's unsaid at 700; Q4: "41.7 ms, waiting in…" cut on "in")
            if (c.name === 'ranks' && view === 'all') {
              // (a wait's gap said by its time alone, as idle, where nothing more fits: review 17Z Z3)
              const waits = frames[0]!.texts.filter((x) => x.role === 'gap' && /wait| idle/.test(x.text));
              // (at 560 px step 4's 31.6 ms is 70 px, short of "31.6 ms wait" and its insets: unlabelled, as its
              // hover says it, never its bare time, which beside rank 1's stretches read as theirs: review 16 Z4)
              assert.equal(waits.length, width < 700 ? 2 : 3, `${theme.name}: ${waits.map((t) => t.text).join(', ')}`);
              const bare = frames.flatMap((f) =>
                f.texts.filter((x) => x.role === 'gap' && /^[\d.]+ [µm]?s$/.test(x.text)),
              );
              assert.deepEqual(bare, [], theme.name);
              for (const { text } of waits) assert.doesNotMatch(text, /(?:…|\b(?:in|for|of|the))$/, theme.name);
            }
            // rank 0's 2 s in all_reduce said as its wait for rank 1's recompile, which the view shows (review 9 D4: an
            // empty box with no word), in the same words at every width
            if (c.name === 'ddp' && view === 'all')
              assert.deepEqual(
                frames[0]!.texts.filter((t) => t.role === 'gap').map((t) => t.text),
                ['2.13 s, waiting in all_reduce for rank 1, recompiling'],
                theme.name,
              );
            // rank 0's 765 µs in all_reduce in its step said at every width (review 13 Q2: blank at 560 px in its
            // 100 px), never cut on "in" (Q4: "765 µs, waiting in…")
            if (c.name === 'ddp' && view === 'step') {
              // its gap's time first, 914 µs, the wait as part of it (review 17Z Z3: "765 µs, waiting" in a longer
              // gap read as its length)
              const waits = frames[0]!.texts.filter((t) => t.role === 'gap' && /wait| idle/.test(t.text));
              assert.equal(waits.length, 1, `${theme.name}: ${waits.map((t) => t.text).join(', ')}`);
              // the wait for rank 1 until rank 1 reached the all_reduce, 494 µs of rank 0's 765 µs in it, the rest the
              // collective's own (review 18Z Z1: "914 µs idle, 765 µs wait"); narrower, fewer whole words, "of it"
              // kept where two numbers are said (18Z Z5)
              assert.match(
                waits[0]!.text,
                /^(?:914 µs idle, (?:765 µs of it in all_reduce, 494 µs of that|494 µs of it) waiting for rank 1|494 µs (?:waiting for rank 1|wait for rank 1|wait))$/,
                theme.name,
              );
              assert.doesNotMatch(waits[0]!.text, /765 µs (?:of it )?wait/, theme.name);
              assert.doesNotMatch(waits[0]!.text, /(?:…|\b(?:in|for|of|the))$/, theme.name);
              // rank 1 reached all_reduce last, rank 0 already in it: its time there is the collective's own, said
              // so, never "waiting" (review 14 S3: "273 µs, waiting"), nor its bare time where that has no room: its
              // gloo thread's bar says it (review 16 X3/Z4: a bare time beside a slice read as that slice's)
              const last = frames[1]!.texts.filter((t) => t.role === 'gap' && /^\d+ µs(?: |$)/.test(t.text));
              assert.ok(
                // (in a longer gap, that gap's time first: review 17Z Z3)
                last.every((t) =>
                  /^(?:\d+ µs idle(?:, \d+ µs of it in all_reduce(?:, last to arrive)?)?|\d+ µs in all_reduce(?:, last to arrive)?)$/.test(
                    t.text,
                  ),
                ),
                `${theme.name}: rank 1's ${last.map((t) => t.text).join(', ')}`,
              );
            }
            // rank 1's own all_reduce bar, reached last, the bar that says why rank 0 waited: at every width it says
            // so in the whole words it has room for, never blank (review 15 W1: blank at 560/700 px where
            // "all_reduce" had no room; V5: at 1400 px only rank 1's bare "273 µs" beside it)
            if ((c.name === 'ddp' || c.name === 'ranks') && view === 'step') {
              const slices = frames[1]!.texts.filter((t) => t.role === 'slice').map((t) => t.text);
              assert.ok(
                slices.some((text) => /^(?:all_reduce, (?:last to arrive|came last)|came last|last)$/.test(text)),
                `${theme.name}: rank 1's ${slices.join(' | ')}`,
              );
            }
            // that bar runs on past its step's end (into step 3 in the whole trace's view): cut at the end line, it
            // is marked there as running on, never cut without a word (review 16 Z1: two lengths for one bar)
            if (c.name === 'ranks' && view === 'step') {
              const frame = frames[1]!;
              const last = frame.texts.find((t) => t.role === 'slice' && /\blast\b/.test(t.text));
              const end = Math.max(...frame.lines.filter((l) => l.role === 'step').map((l) => l.x));
              const cuts = frame.texts.filter((t) => t.role === 'cut');
              assert.ok(
                last && cuts.some((t) => t.middle === last.middle && t.x > end),
                `${theme.name}: rank 1's cut marks ${cuts.map(describeText).join(', ')}`,
              );
            }
            // in the whole trace's view none: nothing is cut there
            if (view === 'all')
              assert.deepEqual(
                frames.flatMap((f) => f.texts.filter((t) => t.role === 'cut')),
                [],
              );
            // rank 0's step 2 ends in ops within 2 px of step 3's line, where step 3's first begin (drawn as one
            // rect): the line is parted from them by a gap in the page's colour over its pixels, never drawn through
            // them (review 15W W8); rank 1's step-2 all_reduce, across that line, keeps it drawn over it
            if (c.name === 'ranks' && view === 'all') {
              // (each pane's step lines, cut around texts, left to right: steps 2, 3, 4 and step 4's end)
              const stepXs = (f: FrameLayout): number[] =>
                [...new Set(f.lines.filter((l) => l.role === 'step').map((l) => l.x))].sort((a, b) => a - b);
              const steps = stepXs(frames[0]!);
              const splits = frames[0]!.lines.filter((l) => l.role === 'split');
              assert.ok(
                steps.length >= 3 && steps.slice(1, 3).every((x) => splits.some((l) => l.x <= x && x + 1 <= l.x + l.w)),
                `${theme.name}: rank 0's step lines at ${steps.join(', ')}, splits ${splits.map((l) => `${l.x}@${l.y0}`).join(', ')}`,
              );
              // (its bar labelled where it has room: at 1400 px)
              const across = stepXs(frames[1]!)[1]!;
              const lastIn = frames[1]!.texts.filter(
                (t) => t.role === 'slice' && /\blast\b/.test(t.text) && t.x < across,
              );
              for (const t of lastIn)
                assert.ok(
                  !frames[1]!.lines.some(
                    (l) =>
                      l.role === 'split' && l.x <= across && across < l.x + l.w && l.y0 <= t.middle && t.middle <= l.y1,
                  ),
                  `${theme.name}: rank 1's ${t.text} parted from step 3's line`,
                );
            }
            // the job's last rank's end line a margin from the pane's edge, as rank 0's: ranks share one axis, and
            // rank 1's step ends last (review 14 T8: at x 514 of 520 px, rank 0's 40 px from it)
            if ((c.name === 'ddp' || c.name === 'ranks') && view === 'step') {
              const ends = frames.map((f) => Math.max(...f.lines.filter((l) => l.role === 'step').map((l) => l.x)));
              const last = Math.max(...ends);
              assert.ok(
                last <= frames[0]!.width - 20,
                `${theme.name}: the last end line at ${last} of ${frames[0]!.width}`,
              );
            }
            if (view === 'all') await page.keyboard.press('f');
          }
        }
        assert.deepEqual(errorsOf(page), []);
        await page.close();
      });
});
