// The checks of timelineLegible.test.ts for its two 2-rank jobs alone: 'ranks' (rank 1 a straggler in its steps'
// all_reduce) and 'ddp' (rank 1's 2 s recompile): what each rank's waits, stretches with no op and last-to-arrive bar
// say, and where the steps' lines end and part. Their marks' checks: legibleCompiledChecks.ts.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { ROW_HEIGHT } from '../../webview/timelineRows.ts';
import { waitingInForms } from '../../webview/timelineWords.ts';
import { describeText } from './frameChecks.ts';
import type { Drawn } from './legibleCases.ts';

/** 'ranks', once its webview is open (the panes' titles, whatever the theme). */
export async function ranksCameLast(page: Page): Promise<void> {
  // rank 1's bars of steps 3 and 4 too narrow for "last" at every width: its title says it came last in all
  // three steps rank 0 waited for it in (review 16Z Z3)
  await page.waitForFunction(() => document.querySelectorAll('.pane-came-last')[1]?.textContent);
  assert.deepEqual(await page.locator('.pane-came-last').allInnerTexts(), [
    '',
    ' · came last to all_reduce in steps 2–4',
  ]);
}

/** 'ranks': rank 1's stretches with no op recorded, in each theme and view. */
function rank1Unrecorded({ frames, theme, view, width }: Drawn): void {
  // a step's stretch with no op recorded on its thread is said in it, not left blank (review 5A: rank 1's
  // 40 ms before its all_reduce)
  // (at 560 and 700 px shorter, never dropped where its time fits: review 7B N11; nor in the whole trace's
  // view, one before each step's ops: review 8B B8), in words meaning the same at every width, never "no op ·
  // 40.2 ms" (review 10 F8) nor "40.2 ms, no op", a no-op (review 15 W6/U6), its time kept: never "no op
  // recorded…" (review 11 I7) nor its time alone (review 16 Z4: beside rank 0's "40.2 ms wait", read as a wait)
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

/** 'ranks', in each theme and view. */
export function ranksChecks({ frames, theme, view, width }: Drawn): void {
  // ranks' step 4 at 1400 px: "backward…" over its blank node over "mm", not two blank bars (review 15W W5)
  const slicesSaid = frames[0]!.texts.filter((t) => t.role === 'slice').map((t) => t.text);
  if (view === 'all' && width === 1400)
    assert.ok(slicesSaid.includes('mm') && slicesSaid.some((t) => t.startsWith('backward')), slicesSaid.join(' | '));
  rank1Unrecorded({ frames, theme, view, width });
  // rank 0 waited in its all_reduce on gloo's thread meanwhile: that is an op of its process, not a stretch
  // with none (review 7A K1: "no op recorded · 44.5 ms" beside the rank table's 3.72 ms); its thread said
  // waiting in it for rank 1, the job's one other rank (review 12 L4/N5: "for another rank"), with what rank
  // 1 did meanwhile where its trace shows it, as a compile is said: its 40.2 ms with no op recorded
  if (view === 'step') {
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
  if (view === 'all') {
    // (a wait's gap said by its time alone, as idle, where nothing more fits: review 17Z Z3)
    const waits = frames[0]!.texts.filter((x) => x.role === 'gap' && /wait| idle/.test(x.text));
    // (at 560 px step 4's 31.6 ms is 70 px, short of "31.6 ms wait" and its insets: unlabelled, as its
    // hover says it, never its bare time, which beside rank 1's stretches read as theirs: review 16 Z4)
    assert.equal(waits.length, width < 700 ? 2 : 3, `${theme.name}: ${waits.map((t) => t.text).join(', ')}`);
    const bare = frames.flatMap((f) => f.texts.filter((x) => x.role === 'gap' && /^[\d.]+ [µm]?s$/.test(x.text)));
    assert.deepEqual(bare, [], theme.name);
    for (const { text } of waits) assert.doesNotMatch(text, /(?:…|\b(?:in|for|of|the))$/, theme.name);
  }
  // that bar runs on past its step's end (into step 3 in the whole trace's view): cut at the end line, it
  // is marked there as running on, never cut without a word (review 16 Z1: two lengths for one bar)
  if (view === 'step') {
    const frame = frames[1]!;
    const last = frame.texts.find((t) => t.role === 'slice' && /\blast\b/.test(t.text));
    const end = Math.max(...frame.lines.filter((l) => l.role === 'step').map((l) => l.x));
    const cuts = frame.texts.filter((t) => t.role === 'cut');
    assert.ok(
      last && cuts.some((t) => t.middle === last.middle && t.x > end),
      `${theme.name}: rank 1's cut marks ${cuts.map(describeText).join(', ')}`,
    );
  }
  // rank 0's step 2 ends in ops within 2 px of step 3's line, where step 3's first begin (drawn as one
  // rect): the line is parted from them by a gap in the page's colour over its pixels, never drawn through
  // them (review 15W W8); rank 1's step-2 all_reduce, across that line, keeps it drawn over it
  if (view === 'all') {
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
    const lastIn = frames[1]!.texts.filter((t) => t.role === 'slice' && /\blast\b/.test(t.text) && t.x < across);
    for (const t of lastIn)
      assert.ok(
        !frames[1]!.lines.some(
          (l) => l.role === 'split' && l.x <= across && across < l.x + l.w && l.y0 <= t.middle && t.middle <= l.y1,
        ),
        `${theme.name}: rank 1's ${t.text} parted from step 3's line`,
      );
  }
}

/** 'ddp', in each theme and view. */
export function ddpChecks({ frames, theme, view }: Drawn): void {
  // each track as deep as its slices in the step shown: rank 1's step 1 stack as deep as rank 0's, not
  // sized for its 2 s recompile in step 2 (review 10 F9: 350 px of empty rows above its gloo thread)
  if (view === 'step')
    assert.ok(frames[1]!.height <= frames[0]!.height + 2 * ROW_HEIGHT, frames.map((f) => f.height).join(', '));
  // rank 0's 2 s in all_reduce said as its wait for rank 1's recompile, which the view shows (review 9 D4: an
  // empty box with no word), in the same words at every width
  if (view === 'all')
    assert.deepEqual(
      frames[0]!.texts.filter((t) => t.role === 'gap').map((t) => t.text),
      ['2.13 s, waiting in all_reduce for rank 1, recompiling'],
      theme.name,
    );
  // rank 0's 765 µs in all_reduce in its step said at every width (review 13 Q2: blank at 560 px in its
  // 100 px), never cut on "in" (Q4: "765 µs, waiting in…")
  if (view === 'step') {
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
    // gloo thread's bar says it (review 16 X3/Z4: a bare time beside a slice read as that slice's); its gap
    // "unrecorded", never "idle", beside rank 0's wait for it (review 20Z Z1)
    const last = frames[1]!.texts.filter((t) => t.role === 'gap' && /^\d+ µs(?: |$)/.test(t.text));
    assert.ok(
      // (in a longer gap, that gap's time first: review 17Z Z3)
      last.every((t) =>
        /^(?:\d+ µs unrecorded(?:, \d+ µs of it in all_reduce(?:, last to arrive)?)?|\d+ µs in all_reduce(?:, last to arrive)?)$/.test(
          t.text,
        ),
      ),
      `${theme.name}: rank 1's ${last.map((t) => t.text).join(', ')}`,
    );
  }
  // the gloo threads whose all_reduces (≤ 765 µs) are below a pixel in the whole 2.2 s say so in their
  // rows, not left empty as lost data (review 17Z Z6)
  if (view === 'all')
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
}

/** Both jobs, 'ranks' and 'ddp': rank 1 reached the collective last. */
export function lastRankChecks({ frames, theme, view }: Drawn): void {
  // rank 1's own all_reduce bar, reached last, the bar that says why rank 0 waited: at every width it says
  // so in the whole words it has room for, never blank (review 15 W1: blank at 560/700 px where
  // "all_reduce" had no room; V5: at 1400 px only rank 1's bare "273 µs" beside it)
  if (view === 'step') {
    const slices = frames[1]!.texts.filter((t) => t.role === 'slice').map((t) => t.text);
    assert.ok(
      slices.some((text) => /^(?:all_reduce, (?:last to arrive|came last)|came last|last)$/.test(text)),
      `${theme.name}: rank 1's ${slices.join(' | ')}`,
    );
  }
  // the job's last rank's end line a margin from the pane's edge, as rank 0's: ranks share one axis, and
  // rank 1's step ends last (review 14 T8: at x 514 of 520 px, rank 0's 40 px from it)
  if (view === 'step') {
    const ends = frames.map((f) => Math.max(...f.lines.filter((l) => l.role === 'step').map((l) => l.x)));
    const last = Math.max(...ends);
    assert.ok(last <= frames[0]!.width - 20, `${theme.name}: the last end line at ${last} of ${frames[0]!.width}`);
  }
}
