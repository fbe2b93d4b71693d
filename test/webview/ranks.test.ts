// A distributed job's ranks in the webview (headless Chromium, the host's own messages): one time axis for ranks
// of one host, collectives in the communication colour, the per-step table equal to rankStepTable with the
// straggler named, the fallback said for ranks of several hosts, and plain traces left as they were.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TimelineSource } from '../../extension/shared/protocol.ts';
import type { FrameLayout } from '../../webview/frameLayout.ts';
import { ROW_HEIGHT } from '../../webview/timelineRows.ts';
import { paneOffsets, rankAlignment } from '../../extension/shared/trace/ranks.ts';
import { firstIsWarmUp } from '../../extension/shared/trace/window.ts';
import { rankStepTable, type RankStepTable } from '../../webview/analysis/rankSteps.ts';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { sentTraces, type TraceMessage } from '../sentTraces.ts';
import { errorsOf, holdBrowser, openWebview, postPanes, postTimeline, record, ROOT, slicePoint } from './harness.ts';

const STRAGGLER = path.resolve(__dirname, '../fixtures/traces/ranks/straggler');
const browser = holdBrowser();

interface Sent {
  title: string;
  source: TimelineSource;
  panes: TraceMessage['pane'][];
}

/** The panes the host sends for the straggler job's two ranks. */
async function rankLoad(): Promise<Sent> {
  const content = await readTimelineSource({
    kind: 'ranks',
    tracePaths: ['rank0', 'rank1'].map((r) => path.join(STRAGGLER, `${r}.trace.json`)),
  });
  return { title: content.title, source: content.source, panes: (await sentTraces(content)).map((m) => m.pane) };
}

const post = (page: Page, sent: Sent): Promise<void> => postPanes(page, sent.title, sent.source, sent.panes);

interface RanksDebug {
  alignment: string;
  offsets: number[];
  table: RankStepTable | null;
}
const ranksDebug = (page: Page): Promise<RanksDebug | null> =>
  page.evaluate(() => (window as unknown as { __timelineDebug: { ranks: RanksDebug | null } }).__timelineDebug.ranks);

describe('rank timeline', () => {
  test('ranks of one host on one axis: offsets from their clocks, slices where they ran', async () => {
    const page = await openWebview(browser());
    const message = await rankLoad();
    await post(page, message);
    const models = message.panes.map((p) => p.trace);
    const alignment = rankAlignment(message.panes.map((p) => ({ trace: p.trace, rank: p.rank! })));
    const ranks = await ranksDebug(page);
    assert.equal(ranks?.alignment, 'absolute');
    // aligned on the step the view opens at: the first, these ranks' steps all alike (≈40 ms each: no warm-up to
    // pass, review 9 D6: "step 2 is the warm-up" and the view opened past it)
    assert.ok(!models.some((m) => firstIsWarmUp(m.steps)), 'the ranks trace has no warm-up step');
    assert.deepEqual(ranks?.offsets, paneOffsets(models, alignment, 0));
    const notes = await page.locator('.pane-note').allInnerTexts();
    assert.ok(notes.length === 2 && notes.every((n) => !n.includes('warm-up')), notes.join(' | '));
    const ruler = await page.evaluate(() =>
      (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts.flatMap((l) =>
        l.texts.filter((t) => t.role === 'step').map((t) => t.text),
      ),
    );
    assert.ok(ruler.length && !ruler.some((t) => t.includes('warm-up')), ruler.join(' │ '));
    // rank 0 waited in all_reduce for rank 1 in every step, and rank 1's bars of steps 3 and 4 have no room for
    // "last": its title says it came last in all three, once the job's waits are known (review 16Z Z3)
    await page.waitForFunction(() => document.querySelectorAll('.pane-came-last')[1]?.textContent);
    assert.deepEqual(await page.locator('.pane-label').allInnerTexts(), [
      'rank 0 — 463 events, 3 steps',
      'rank 1 — 463 events, 3 steps · came last to all_reduce in steps 2–4',
    ]);
    assert.match(
      (await page.locator('.pane-came-last').nth(1).getAttribute('title')) ?? '',
      /^In steps 2–4 this rank reached all_reduce when every other rank was already in it/,
    );
    const note = await page.locator('.rank-note').innerText();
    assert.match(note, /Ranks 0, 1 of world size 2 \(gloo\)\./);
    assert.match(note, /One time axis: the ranks of one host \(vm\) share its clock/);

    // rank 1 began ProfilerStep#2 about 4 ms before rank 0: its slice starts that much further left (on step 2,
    // where the view opens)
    if (alignment.mode !== 'absolute') throw new Error('expected one axis');
    await page.locator('vscode-button', { hasText: '◀ step' }).click();
    const startOf = (p: number): number => alignment.shiftUs[p]! + models[p]!.steps[0]!.start;
    const { domain } = await page.evaluate(() => ({
      domain: (window as unknown as { __timelineDebug: { domain: [number, number] } }).__timelineDebug.domain,
    }));
    const width = await page
      .locator('canvas')
      .first()
      .evaluate((c) => (c as HTMLCanvasElement).clientWidth);
    const pxPerUs = (width - 190) / (domain[1] - domain[0]);
    const leftOf = async (p: number): Promise<number> => {
      const point = await slicePoint(page, p, 'ProfilerStep#2');
      const dur = models[p]!.steps[0]!.end - models[p]!.steps[0]!.start;
      return point.x - (dur / 2) * pxPerUs; // locate gives the middle of the visible part; both steps are whole in view
    };
    const [left0, left1] = await Promise.all([leftOf(0), leftOf(1)]);
    assert.ok(startOf(1) < startOf(0) - 3000, `rank 1 starts ${startOf(0) - startOf(1)} µs earlier`);
    assert.ok(Math.abs(left0 - left1 - (startOf(0) - startOf(1)) * pxPerUs) < 2, `x ${left0} vs ${left1}`);
    assert.deepEqual(errorsOf(page), []);
    assert.deepEqual((await record(page)).cspViolations, []);
    await page.close();
  });

  test('collectives are painted in the communication colour, with a legend entry', async () => {
    const page = await openWebview(browser());
    await post(page, await rankLoad());
    assert.equal(await page.locator('.legend .kind-communication').count(), 1);
    assert.match(await page.locator('.legend').innerText(), /communication \(NCCL\/gloo\)/);
    // (a colour white text reads on at ink.LABEL_FILL: a mid-tone one is moved from the middle)
    const pixel = await page.evaluate(async () => {
      document.body.style.setProperty('--vscode-terminal-ansiMagenta', 'rgb(170, 0, 160)');
      document.body.className = 'vscode-dark';
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const debug = (
        window as unknown as {
          __timelineDebug: { locate(p: number, n: string, k: number): { x: number; y: number } | null };
        }
      ).__timelineDebug;
      // the first all-reduce in the view that opens (the first step)
      const at = [0, 1, 2].map((k) => debug.locate(0, 'gloo:all_reduce', k)).find((point) => point !== null);
      if (!at) throw new Error('all-reduce not visible');
      const canvas = document.querySelector('canvas')!;
      const ratio = canvas.width / canvas.clientWidth;
      return [
        ...canvas
          .getContext('2d')!
          .getImageData(Math.round(at.x * ratio), Math.round(at.y * ratio), 1, 1)
          .data.slice(0, 3),
      ];
    });
    assert.ok(
      pixel.every((v, i) => Math.abs(v - [170, 0, 160][i]!) <= 3),
      `pixel ${pixel.join(',')}`,
    );
    await page.close();
  });

  test('rank 1\'s stretches with no op recorded: labelled with their time where it fits (review 11 I7: "no op…", its time gone), in words that mean the same, never its time alone (review 16 Z4) nor "40.2 ms, no op" (review 15 W6), the hover saying what the time is, labelled or not (review 8B B8)', async () => {
    for (const [width, word] of [
      // (at 560 px "40.2 ms unrecorded" has no room: unlabelled, never "idle": review 19 X1/Y1/Z1; timelineLegible)
      [700, 'unrecorded'],
    ] as const) {
      const page = await openWebview(browser(), { width, height: 900 });
      await post(page, await rankLoad());
      await page.keyboard.press('0');
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const frame = await page.evaluate(
        () => (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts[1]!,
      );
      const gaps = frame.texts.filter((t) => t.role === 'gap');
      // one before each step's ops where its time fits: the straggler's 40 ms, the point of this screen; in words
      // meaning the same at every width, never "40.2 ms, no op", a no-op (review 15 W6/U6)
      assert.equal(gaps.length, 3, `${width} px: ${gaps.map((t) => t.text).join(', ')}`);
      // (never its time alone: beside rank 0's "40.2 ms wait" it read as a wait, review 16 Z4)
      for (const { text } of gaps) assert.equal(text.replace(/^\d+\.\d ms /, ''), word, `${width} px: ${text}`);
      // the first stretch: from step 2's line on, in the row of rank 1's thread's ops (under its steps' row)
      const step2 = frame.lines.filter((l) => l.role === 'step').sort((p, q) => p.x - q.x)[0]!.x;
      const thread = frame.texts.find((t) => t.role === 'track' && t.text.startsWith('thread '))!;
      const canvas = (await page.locator('canvas').nth(1).boundingBox())!;
      await page.mouse.move(canvas.x + step2 + 20, canvas.y + thread.middle + ROW_HEIGHT);
      const tooltip = page.locator('.tooltip');
      await tooltip.waitFor({ state: 'visible' });
      assert.match(
        await tooltip.innerText(),
        /^No op recorded on this thread for 40\.\d ms of its step: Python between ops, a sleep, I\/O, waiting for data \(the profiler records ops, not these\)\.$/,
        `${width} px`,
      );
      assert.deepEqual(errorsOf(page), []);
      await page.close();
    }
  });

  test("rank 0's title, steps note and axis below the sticky toolbar, at load and with the panes scrolled to (review 9 C9/D11/E9)", async () => {
    for (const width of [560, 700, 1400]) {
      const page = await openWebview(browser(), { width, height: 900 });
      await post(page, await rankLoad());
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const covered = async (): Promise<string[]> => {
        const bar = (await page.locator('.toolbar').boundingBox())!;
        const parts = {
          title: page.locator('.pane-label').first(),
          note: page.locator('.pane-note').first(),
          axis: page.locator('.pane canvas').first(),
        };
        const out: string[] = [];
        for (const [name, part] of Object.entries(parts)) {
          const box = (await part.boundingBox())!;
          if (box.y < bar.y + bar.height - 0.5)
            out.push(`${name} at y ${box.y} under the toolbar to ${bar.y + bar.height}`);
        }
        return out;
      };
      assert.deepEqual(await covered(), [], `${width} px, at load`);
      // what a screenshot of the panes, or a reveal of the first pane, scrolls to
      await page.locator('.panes').scrollIntoViewIfNeeded();
      await page.locator('.panes').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      assert.ok(await page.evaluate(() => window.scrollY > 0), `${width} px: the page scrolled`);
      assert.deepEqual(await covered(), [], `${width} px, the panes scrolled to`);
      await page.close();
    }
  });

  test('the per-step table: the numbers of rankStepTable, rank 1 the slowest of each step', async () => {
    // as wide as a panel beside the editor in a 1500 px window: the table wraps its sentences, never scrolls sideways
    const page = await openWebview(browser(), { width: 1050, height: 900 });
    const message = await rankLoad();
    await post(page, message);
    const expected = rankStepTable(message.panes.map((p) => p.trace));
    assert.deepEqual((await ranksDebug(page))?.table, expected);
    const rows = await page.locator('.rank-steps-table tr[data-step]').evaluateAll((trs) =>
      trs.map((tr) => ({
        step: (tr as HTMLElement).dataset['step'],
        rank: tr.querySelector('td')!.textContent,
        values: [...tr.querySelectorAll('td[data-value]')].map((td) => Number((td as HTMLElement).dataset['value'])),
        slowest: tr.classList.contains('slowest'),
      })),
    );
    assert.equal(rows.length, 6);
    rows.forEach((row, k) => {
      const stat = expected.rows[Math.floor(k / 2)]!.ranks[k % 2]!;
      assert.deepEqual(row, {
        step: expected.rows[Math.floor(k / 2)]!.label,
        rank: `rank ${k % 2}`,
        values: [stat.stepUs, stat.commUs, stat.overlappedUs, stat.workUs - stat.unrecordedUs, stat.unrecordedUs],
        slowest: k % 2 === 1,
      });
    });
    const slowest = await page.locator('.rank-steps-table td.slowest-rank').allInnerTexts();
    assert.equal(slowest.length, 3);
    // one unit in the table (its steps take tens of ms): no "0.0 µs" beside "43.58 ms"
    const units = await page
      .locator('.rank-steps-table td.num, .rank-steps-table td.slowest-rank')
      .evaluateAll((cells) =>
        cells.flatMap((c) => [...(c.textContent ?? '').matchAll(/\d ?(µs|ms|s)\b/g)].map((m) => m[1])),
      );
    assert.deepEqual([...new Set(units)], ['ms']);
    // rank 1 sleeps 40 ms before each forward: its lead is said as what was compared (time outside communication,
    // against rank 0's) and as time with no op recorded, not as work; that part never more than the lead (in step 4,
    // rank 0 ran more recorded ops: rank 1's 40 ms more without one is all of its 32 ms lead); never as the time the
    // others waited for it, which the timeline says from when each reached the collective (review 18Y: "37.7 ms (the
    // time the others waited for it)" here, "36.8 ms of that waiting for rank 1" on rank 0's label, one step)
    for (const text of slowest) {
      const said =
        /^rank 1: (\d+(?:\.\d+)?) ms more outside communication than rank 0, (?:all of it|(\d+(?:\.\d+)?) ms of it) with no op recorded \(Python, sleep, I\/O\)$/.exec(
          text,
        );
      assert.doesNotMatch(text, /wait/, text);
      assert.ok(said, text);
      assert.ok(Number(said[1]) > 25, text);
      if (said[2]) assert.ok(Number(said[2]) <= Number(said[1]), `${text}: a part larger than its whole`);
    }
    assert.ok(
      expected.rows.some((r) => r.slowest!.unrecordedLeadUs > r.slowest!.leadUs) &&
        slowest.some((t) => t.includes('all of it')),
      'a step whose extra unrecorded time covers all of the lead',
    );
    for (const row of expected.rows) assert.ok(row.ranks[1]!.unrecordedUs > 35_000, `${row.label}: rank 1's sleep`);
    // the column sums a step's stretches with no op recorded (41.0 ms in rank 1's step 2), the timeline labels each
    // one ("40.2 ms, no op recorded"): two quantities, two names (review 12N C7)
    const heads = await page.locator('.rank-steps-table th').allInnerTexts();
    const unrecorded = heads[heads.indexOf('ops recorded') + 1]!;
    assert.equal(unrecorded, 'no op recorded (sum)');
    assert.match(
      (await page.locator('.rank-steps-table th', { hasText: unrecorded }).getAttribute('title')) ?? '',
      /summed; the timeline labels each stretch on its own/,
    );
    assert.match(await page.locator('.rank-steps').innerText(), /CPU collective ops \(gloo; these traces have no GPU/);
    // the lead named apart from the wait, which the timeline says (review 18Y: 37.7 ms here, 36.8 ms on rank 0's label)
    assert.match(
      await page.locator('.rank-steps .hint').first().innerText(),
      /The slowest rank's lead \(last column\) is that difference of time, not how long the others waited: the timeline says that/,
    );
    const scroll = await page
      .locator('.rank-steps .table-scroll')
      .evaluate((box) => [box.scrollWidth, box.clientWidth] as const);
    assert.ok(scroll[0] <= scroll[1], `the table is ${scroll[0]} px in ${scroll[1]} px`);

    // a step's name shows that step, on the same common axis
    await page.locator('.rank-steps-table th.step button', { hasText: 'step 3' }).click();
    const models = message.panes.map((p) => p.trace);
    const alignment = rankAlignment(message.panes.map((p) => ({ trace: p.trace, rank: p.rank! })));
    await page.waitForFunction(
      (want) =>
        JSON.stringify(
          (window as unknown as { __timelineDebug: { ranks: { offsets: number[] } } }).__timelineDebug.ranks.offsets,
        ) === want,
      JSON.stringify(paneOffsets(models, alignment, 1)),
    );
    await page.close();
  });

  test('ranks of several hosts: each at its own step start, and the panel says why', async () => {
    const page = await openWebview(browser());
    const message = await rankLoad();
    const panes: Sent['panes'] = message.panes.map((p, k) => ({ ...p, rank: { ...p.rank!, hostName: `node-${k}` } }));
    await post(page, { ...message, panes });
    const ranks = await ranksDebug(page);
    assert.equal(ranks?.alignment, 'per-step');
    assert.deepEqual(
      ranks?.offsets,
      panes.map((p) => p.trace.steps[0]!.start),
    );
    assert.match(
      await page.locator('.rank-note .warning').innerText(),
      /ran on 2 hosts \(node-0, node-1\).*its own step/,
    );
    // (ranks on clocks of their own: which came last is not known, and the titles say nothing of it)
    await page.waitForFunction(
      () => (window as unknown as { __timelineDebug: { marks: unknown } }).__timelineDebug.marks !== null,
    );
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    assert.deepEqual(await page.locator('.pane-label').allInnerTexts(), [
      'rank 0 — 463 events, 3 steps',
      'rank 1 — 463 events, 3 steps',
    ]);
    await page.close();
  });

  test('the same traces without ranks stay a comparison: no rank note, no per-step table', async () => {
    const page = await openWebview(browser());
    const message = await rankLoad();
    await post(page, {
      ...message,
      source: { kind: 'traces', tracePaths: ['a', 'b'] },
      panes: message.panes.map(({ label, trace }) => ({ label, trace })),
    });
    assert.equal(await ranksDebug(page), null);
    assert.equal(await page.locator('.rank-note, .rank-steps').count(), 0);
    assert.equal(await page.locator('.compare-table').count(), 1);
    await page.close();
  });

  test("a job's rank names its compiles as the report's compile phases do: rank 1's 2 s recompile's band and the call it ran in by their rows' names, never by their place in the step (review 11 I1/J1/K2: \"4th compiled call in the step (addmm), recompile 1\" over \"1st compiled call …\", the report's \"forward, recompiled for x's size 8 in dimension 0\")", async () => {
    const content = await readTimelineSource({
      kind: 'report',
      reportPath: path.join(ROOT, 'test', 'fixtures', 'reports', 'ddp-ranks-cpu', 'report.json'),
    });
    const groups = content.report!.modes.flatMap((m) => m.compiler?.rankPhases ?? []);
    const nameOf = (compileId: string): string =>
      groups.find((g) => g.ranks.includes(1))!.compiler.frames!.find((f) => f.compileId === compileId)!.nameText!;
    const page = await openWebview(browser(), { width: 1400, height: 900 });
    await postTimeline(page, content);
    await page.waitForFunction(
      () => (window as unknown as { __timelineDebug: { marks: unknown } }).__timelineDebug.marks,
    );
    await page.keyboard.press('0');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const frames = await page.evaluate(
      () => (window as unknown as { __timelineDebug: { layouts: FrameLayout[] } }).__timelineDebug.layouts,
    );
    const texts = frames[1]!.texts.filter((t) => t.role === 'mark' || t.role === 'slice').map((t) => t.text);
    // the band: the compile of forward's recompile (4/1); the call it ran inside: DDP's recompiled wrapper (0/1)
    // (and the call it ran inside, named as that call's slice is: s31-bands)
    assert.ok(texts.includes(`${nameOf('4/1')}, inside DistributedDataParallel at ddp_train.py:77`), texts.join(' | '));
    assert.ok(texts.includes(`compiled ${nameOf('0/1')}`), texts.join(' | '));
    for (const frame of frames)
      for (const t of frame.texts) assert.doesNotMatch(t.text, /compiled call (in|outside) the (step|trace)/);
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });
});
