// Where the compile phases' bar labels go, at the widths the panel opens in: in their bar or directly beside it, never
// over another bar; a depth's costliest bar named first, a wider panel only adding labels, guards named past the
// trace slivers before them (review 14R R1/R2, 13 O1/O3).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Report } from '../../extension/shared/report.ts';
import { type Bar, CHARTED, inside, phasesOpener, rowsOf } from './compilePhasesPage.ts';

const openPhases = phasesOpener();

describe('compile phases', () => {
  // review 11K K1 / 11J J2 / 11I I4: "Counter: forward · 268 ms" named its 30.1 ms trace at 1360 px and its 209 ms
  // guards at 560, never both
  for (const folder of ['recorded/train_small-cpu', 'reports/fused-cpu', 'reports/ddp-ranks-cpu', 'reports/h100-mlp'])
    test(`a wider panel only adds labels, a depth's costliest named first, a cheaper bar's label never in a costlier one's room, a bar with room for its name alone named (${folder})`, async () => {
      const widths = [560, 700, 1400];
      const labelled: Set<string>[] = [];
      const wrong: string[] = [];
      /** Whether `bar` has no room for its name alone in it, nor for a label `beside` px long beside it (a bar of its
       *  depth or the track's end against it on both sides) */
      const noRoom = (bar: Bar, bars: Bar[], beside: number): boolean => {
        const others = bars.filter((b) => b !== bar && b.depth === bar.depth);
        const left = Math.min(bar.x - bar.trackX, ...others.filter((b) => b.x < bar.x).map((b) => bar.x - b.right));
        const right = Math.min(
          bar.trackX + bar.track - bar.right,
          ...others.filter((b) => b.right > bar.right).map((b) => b.x - bar.right),
        );
        return bar.right - bar.x < bar.nameAlone + 6 && left < beside + 4 && right < beside + 4;
      };
      /** The bars with no place at all at the narrowest width (room for their name alone nowhere); and those with
       *  none at the widest (room for their shortest form with its time nowhere), so none they could keep at any
       *  narrower one (review 20X X3: Counter's 209-ms guards, room left of them at 560 px, none at 1400 past the
       *  trace grown wider than a sliver); a cheaper bar of their depth may be labelled beside itself at every width
       *  (review 14R R1: O3 relaxed) */
      const placeless = new Set<string>();
      {
        const page = await openPhases(folder, widths.at(-1)!);
        (await rowsOf(page)).forEach(({ bars }, row) =>
          bars.forEach((bar, k) => {
            if (noRoom(bar, bars, bar.shortest)) placeless.add(`${row}#${k}`);
          }),
        );
        await page.close();
      }
      for (const width of widths) {
        const page = await openPhases(folder, width);
        const rows = await rowsOf(page);
        const shown = new Set<string>();
        rows.forEach(({ bars }, row) => {
          bars.forEach((bar, k) => {
            if (bar.label !== null) shown.add(`row ${row}: ${bar.forms[0]}#${k}`);
            if (width === widths[0] && noRoom(bar, bars, bar.nameAlone)) placeless.add(`${row}#${k}`);
          });
          const free = (b: Bar): boolean => placeless.has(`${row}#${bars.indexOf(b)}`);
          // at each depth, while a costlier bar has no label, a cheaper one's label only in its bar (review 13 O3:
          // "guards 53.9 ms" beside the backend compile, TinyTransformer's 0.5-s trace unnamed), but where the
          // costlier one had no place at all
          for (const hidden of bars.filter((b) => b.label === null && !free(b)))
            for (const shown of bars.filter(
              (b) => b.depth === hidden.depth && b.label !== null && b.ms < hidden.ms && !inside(b),
            ))
              wrong.push(`${width} px, row ${row}: "${shown.label}" beside its bar, ${hidden.forms[0]} unlabelled`);
          // each depth's costliest bar labelled where any of its bars is (review 12N N1: a step's 25.6 ms trace
          // named at 560 px beside its 38.2 ms guards, unnamed)
          for (const depth of new Set(bars.map((b) => b.depth))) {
            const lane = bars.filter((b) => b.depth === depth);
            const costliest = lane.reduce((a, b) => (b.ms > a.ms ? b : a));
            if (costliest.label === null && !free(costliest) && lane.some((b) => b.label !== null))
              wrong.push(`${width} px, row ${row}: ${costliest.forms[0]} unlabelled, a cheaper bar beside it not`);
            // a bar wide enough for its name alone (3 px either side) named, where every costlier bar of its depth
            // is and its phase is not said with its time elsewhere on the chart (review 13 P6)
            const timedElsewhere = (bar: Bar): boolean =>
              rows.some((r) =>
                r.bars.some((b) => b.phase === bar.phase && b.label !== null && !b.names.includes(b.label)),
              );
            for (const bar of lane)
              if (
                bar.label === null &&
                lane.every((b) => b.ms <= bar.ms || b.label !== null) &&
                !timedElsewhere(bar) &&
                bar.right - bar.x >= bar.nameAlone + 6
              )
                wrong.push(`${width} px, row ${row}: ${bar.forms[0]}, ${(bar.right - bar.x).toFixed(0)} px, unnamed`);
          }
        });
        labelled.push(shown);
        await page.close();
      }
      for (let k = 1; k < widths.length; k++)
        for (const bar of labelled[k - 1]!)
          if (!labelled[k]!.has(bar)) wrong.push(`${bar}: labelled at ${widths[k - 1]} px, not at ${widths[k]} px`);
      assert.deepEqual(wrong, [], folder);
      assert.ok(labelled[0]!.size > 3, `${labelled[0]!.size} labels at 560 px`);
    });

  test('the 63-s compile\'s C++ builds, none of which has room for "(k of 13)": one at most named, with its count, never a lone "C++ 5.72 s" read as their sum (review 14R R1, 15U U5)', async () => {
    for (const width of [560, 700, 1400]) {
      const page = await openPhases('reports/fused-cpu', width);
      const { bars } = (await rowsOf(page))[0]!;
      const builds = bars.filter((b) => b.phase === 'C++ compile');
      const shown = builds.filter((b) => b.label !== null);
      // one at most, said with "(k of 13)", its 12 mates bare; at 1400 px the 5.72-s build has room for it by its
      // name alone, its phase said with its time on the recompile's row: named so, one cut in its row (review 16Z Z9)
      assert.ok(shown.length <= 1, `${width} px: ${shown.map((b) => b.label).join(', ')}`);
      for (const build of shown) assert.match(build.label!, / of 13\)/, `${width} px`);
      if (width === 1400)
        assert.deepEqual(
          shown.map((b) => b.label),
          ['C++ (12 of 13)'],
        );
      await page.close();
    }
  });

  test("Counter's guards named beside the trace slivers before them where those stay slivers, and a step's at 560 px; else in their row's hover (review 14R R1/R2, 13 O1)", async () => {
    for (const width of [560, 700, 1400]) {
      const page = await openPhases('recorded/train_small-cpu', width);
      const rows = await rowsOf(page);
      const row = (name: string): { tip: string; bars: Bar[] } => rows.find((r) => r.tip.startsWith(`${name}\u00a0·`))!;
      // the self.calls == 1 recompile: two trace slivers (under 2 px up to a 900-px track) right before its guards,
      // at the axis's end: its guards named left of them
      const guards = row('Counter: forward, recompiled for self.calls == 1, captured nothing, made no graph').bars.find(
        (b) => b.phase === 'Dynamo: build guards',
      )!;
      assert.ok(guards.label?.includes('guards 37.1 ms'), `${width} px: ${JSON.stringify(guards)}`);
      // every Counter row's guards: named, and left of their bar only past slivers (under 2 px); else in the hover
      for (const { tip, bars } of rows.filter((r) => r.tip.startsWith('Counter'))) {
        const guards = bars.find((b) => b.phase === 'Dynamo: build guards')!;
        if (guards.label === null) assert.ok(tip.includes(guards.forms[0]!), `${width} px: ${tip}`);
        else if (guards.labelLeft < guards.x)
          for (const b of bars.filter((b) => b.y === guards.y && b.x >= guards.labelRight && b.x < guards.x))
            assert.ok(b.right - b.x < 2, `${width} px: ${guards.label} left of ${b.name}, ${b.right - b.x} px`);
      }
      // the steps recompiled for sizes 48, 64, 80 and 128: a 0.5-px trace right before their guards, no room right
      // of these at 560 px: named left of the trace (review 14R R2: the costliest of them, 57.6 ms, bare)
      if (width === 560)
        for (const size of [48, 64, 80, 128]) {
          const { bars } = row(`step, recompiled for x's size ${size} in dimension 1`);
          const costliest = bars.filter((b) => b.depth === guards.depth).reduce((a, b) => (b.ms > a.ms ? b : a));
          assert.ok(costliest.label !== null, `size ${size}: ${costliest.name} bare`);
        }
      await page.close();
    }
  });

  test("Counter's `self.calls == 2` recompile's and normalize's guards named at every width, beside the trace slivers before them (review 16Y Y5: bare at 1400 px, where those slivers grew to 2 px by 1200)", async () => {
    for (const width of [560, 700, 1000, 1400, 2000]) {
      const page = await openPhases('recorded/train_small-cpu', width);
      const rows = await rowsOf(page);
      for (const [name, said] of [
        ['Counter: forward, recompiled for self.calls == 2, captured nothing, made no graph', 'guards 69.8 ms'],
        ['normalize', 'guards 82.5 ms'],
      ] as const) {
        const { bars } = rows.find((r) => r.tip.startsWith(`${name}\u00a0·`))!;
        const guards = bars.find((b) => b.phase === 'Dynamo: build guards')!;
        assert.ok(guards.label?.endsWith(said), `${name} at ${width} px: ${JSON.stringify(guards.label)}`);
      }
      await page.close();
    }
  });

  test("Counter's traces named left of their bar at every width where their costlier guards have no place at 1400 px: not a bare lane with 275 px free (review 20X X3)", async () => {
    for (const width of [560, 700, 1400]) {
      const page = await openPhases('recorded/train_small-cpu', width);
      const rows = await rowsOf(page);
      // the restart's trace said in its form without "Dynamo: " as the chart says it, never asked room for that part
      // (the 268-ms row's, 1 px short of it at 560 px)
      for (const [name, said] of [
        ['Counter: forward after line 29', 'trace bytecode 43.4 ms'],
        [
          'Counter: forward, recompiled for self.calls not in (0, 1, 2), captured nothing, made no graph',
          'trace bytecode (given up, restarted) 62.5 ms',
        ],
        ['Counter: forward, captured nothing, made no graph', 'trace bytecode (given up, restarted) 30.1 ms'],
      ] as const) {
        const { tip, bars } = rows.find((r) => r.tip.startsWith(`${name}\u00a0·`))!;
        const trace = bars.find((b) => b.phase === 'Dynamo: trace bytecode')!;
        const guards = bars.find((b) => b.phase === 'Dynamo: build guards')!;
        // the guards, costlier, with no room right of them at 1400 px (the axis's end) nor left (the trace): bare at
        // every width, named in the row's hover
        assert.equal(guards.label, null, `${name} at ${width} px`);
        assert.ok(tip.includes(guards.forms[0]!), `${name} at ${width} px: ${tip}`);
        assert.equal(trace.label, said, `${name} at ${width} px`);
        assert.ok(trace.labelRight <= trace.x, `${name} at ${width} px: left of its bar`);
      }
      await page.close();
    }
  });

  test("rank 1's 2.06 s recompile's forward Inductor named where its costlier backward compile has no place at all: at the axis's end, the forward's bar against it (review 14R R1, 13 O3 relaxed)", async () => {
    for (const width of [560, 700, 1400]) {
      const page = await openPhases('reports/ddp-ranks-cpu', width);
      const { bars } = (await rowsOf(page)).find((r) =>
        r.tip.startsWith("DistributedDataParallel: forward, recompiled for x's size 8 in dimension 0\u00a0·"),
      )!;
      const inductor = bars.find((b) => b.name === 'Inductor (forward)')!;
      assert.ok(inductor.label?.startsWith('Inductor (forward)'), `${width} px: ${JSON.stringify(inductor)}`);
      await page.close();
    }
  });

  test("every label's nearest bar of its depth is its own: in its bar or directly beside it (review 13 O1)", async () => {
    for (const folder of ['reports/ddp-ranks-cpu', 'recorded/train_small-cpu', 'reports/fused-cpu']) {
      for (const width of [560, 700, 1400]) {
        const page = await openPhases(folder, width);
        const wrong: string[] = [];
        for (const { tip, bars } of await rowsOf(page)) {
          for (const bar of bars.filter((b) => b.label !== null)) {
            const gap = (b: Bar): number => Math.max(0, b.x - bar.labelRight, bar.labelLeft - b.right);
            // nearer by more than the eye can tell; a bar here is a visible one, 2 px wide or more: a sliver under 2
            // px against a bar is that bar's edge to the eye (review 14R R1: a step's guards bare for a 0.5-px trace
            // against them; a 46 ms trace at the start of a 1.98 s backend compile on a 57 s axis)
            const visible = (b: Bar): boolean => b.right - b.x >= 2;
            const nearer = bars.filter((b) => b !== bar && b.y === bar.y && visible(b) && gap(b) < gap(bar) - 0.5);
            if (nearer.length)
              wrong.push(`${tip.split('\n')[0]}: "${bar.label}" as near ${nearer.map((b) => b.name).join(', ')}`);
          }
        }
        assert.deepEqual(wrong, [], `${folder} at ${width} px`);
        await page.close();
      }
    }
  });

  test("the 256 recompile's cache hit named beside its diamond at every width: its 1-px load from cache left of the diamond over its end (review 17X X7: bare at 560/700 px with 250 px free)", async () => {
    for (const width of [560, 700, 1400]) {
      const page = await openPhases('recorded/train_small-cpu', width);
      const { bars } = (await rowsOf(page)).find((r) =>
        r.tip.startsWith("TinyTransformer: forward, recompiled for x's size 256 in dimension 1\u00a0·"),
      )!;
      const load = bars.find((b) => b.phase === 'load from cache')!;
      assert.equal(load.label, 'load from cache 32.2 ms', `${width} px`);
      await page.close();
    }
  });

  test("a cache diamond on or against a bar of its lane, never apart from all (review 18Z Z6: h100's FX graph cache miss 22 px left of the lowering bar at 1400 px, lined up with nothing; now on the Inductor bar it was made in)", async () => {
    for (const folder of CHARTED)
      for (const width of [560, 700, 1400]) {
        const page = await openPhases(folder, width);
        const apart = await page.locator('.compile-phases .phase-track').evaluateAll((tracks) =>
          tracks.flatMap((track) =>
            [...track.querySelectorAll('svg.cache-marker')].flatMap((marker) => {
              const diamond = marker.querySelector('path')!.getBoundingClientRect();
              const lane = Number(marker.getAttribute('y')) + 1;
              const touching = [...track.querySelectorAll('g.phase rect')].some((rect) => {
                const box = rect.getBoundingClientRect();
                return (
                  Number(rect.getAttribute('y')) === lane &&
                  diamond.right >= box.left - 1 &&
                  diamond.left <= box.right + 1
                );
              });
              return touching ? [] : [marker.querySelector('title')!.textContent];
            }),
          ),
        );
        assert.deepEqual(apart, [], `${folder} at ${width} px`);
        await page.close();
      }
  });

  test("h100's FX graph cache misses on the Inductor bar whose start they mark in both its rows, at every width: not in front of the recompile's lowering sliver, read as codegen's miss (review 19X X2)", async () => {
    for (const width of [400, 560, 700, 1000, 1400]) {
      const page = await openPhases('reports/h100-mlp', width);
      const onInductor = await page.locator('.compile-phases .phase-track').evaluateAll((tracks) =>
        tracks.flatMap((track) =>
          [...track.querySelectorAll('svg.cache-marker')]
            .filter((marker) => marker.querySelector('title')!.textContent.startsWith('FX graph cache: miss'))
            .map((marker) => {
              const diamond = marker.querySelector('path')!.getBoundingClientRect();
              const middle = (diamond.left + diamond.right) / 2;
              const lane = Number(marker.getAttribute('y')) + 1;
              const inductor = [...track.querySelectorAll('g.phase')].find(
                (g) => g.querySelector('text')?.dataset['phase'] === 'Inductor',
              )!;
              const bar = inductor.querySelector('rect')!;
              const box = bar.getBoundingClientRect();
              return Number(bar.getAttribute('y')) === lane && Math.abs(middle - box.left) <= 1;
            }),
        ),
      );
      assert.deepEqual(onInductor, [true, true], `${width} px`);
      await page.close();
    }
  });

  test("slivers of two colours against each other named only in their row's hover, a time under 1 ms in µs (review 19Z Z6: 'Inductor: kernel codegen 0.985 ms' beside a 1-px teal bar under a magenta load module's)", async () => {
    // h100's recompile given timeline.png's tail: a 0.985-ms kernel codegen and a 0.4-ms load module 1 ms on, each
    // drawn at the least width, 27 ms past the kernel compile's end
    const tail = (report: Report): void => {
      const phases = report.modes[0]!.compiler!.phases!;
      phases.push(
        {
          ...phases.find((p) => p.name === 'kernel compile' && p.compileId === '0/1')!,
          name: 'Inductor: kernel codegen',
          startMs: 3260,
          durMs: 0.985,
          labels: ['Inductor: kernel codegen', 'kernel codegen'],
        },
        {
          ...phases.find((p) => p.name === 'kernel compile' && p.compileId === '0/1')!,
          name: 'Inductor: load module',
          startMs: 3261,
          durMs: 0.4,
          labels: ['Inductor: load module', 'load module', 'load'],
        },
      );
    };
    for (const width of [560, 700, 1400]) {
      const page = await openPhases('reports/h100-mlp', width, tail);
      const { tip, bars } = (await rowsOf(page))[1]!;
      const codegen = bars.find((b) => b.phase === 'Inductor: kernel codegen')!;
      const load = bars.find((b) => b.phase === 'Inductor: load module')!;
      assert.deepEqual([codegen.label, load.label], [null, null], `${width} px`);
      assert.ok(
        codegen.forms.every((f) => f.endsWith('985 µs')),
        `${width} px: ${codegen.forms.join(', ')}`,
      );
      assert.ok(tip.includes('kernel codegen 985 µs') && tip.includes('load module 400 µs'), `${width} px: ${tip}`);
      await page.close();
    }
  });

  test("a frame's last sliver named past the frame's end where its row has room there, else in its row's hover: timeline.png's 'guards 97.4 ms' of a 6.58-s frame, its 85-ms guards of a 7.04-s one 61 px from the axis's end (review 20Z Z2)", async () => {
    // h100's first compile given timeline.png's proportions (a 150-ms trace, the backend compile, the guards at the
    // frame's end; its recompile's row right after it), every other phase of it scaled into its backend compile
    const timelinePng =
      (frameMs: number, guardsMs: number, nextMs: number, nextFrameMs: number) =>
      (report: Report): void => {
        const compiler = report.modes[0]!.compiler!;
        const phases = compiler.phases!.filter((p) => p.name !== 'autotune');
        const backend = phases.find((p) => p.compileId === '0/0' && p.name === 'backend compile')!;
        const [backendFrom, backendMs] = [backend.startMs, backend.durMs];
        const backendEnd = frameMs - guardsMs - 10;
        const inner = (backendEnd - 170) / backendMs;
        const next = nextFrameMs / phases.find((p) => p.compileId === '0/1')!.durMs;
        const nextFrom = phases.find((p) => p.compileId === '0/1')!.startMs;
        for (const p of phases) {
          if (p.compileId !== '0/0') [p.startMs, p.durMs] = [nextMs + (p.startMs - nextFrom) * next, p.durMs * next];
          else if (p.name === 'Dynamo: whole frame') [p.startMs, p.durMs] = [0, frameMs];
          else if (p.name === 'Dynamo: trace bytecode') [p.startMs, p.durMs] = [5, 150];
          else if (p.name === 'Dynamo: build guards') [p.startMs, p.durMs] = [frameMs - guardsMs, guardsMs];
          else [p.startMs, p.durMs] = [170 + (p.startMs - backendFrom) * inner, p.durMs * inner];
        }
        compiler.phases = phases;
      };
    for (const [run, edit, named] of [
      ['19th', timelinePng(6580, 97.4, 6900, 452), [1400, 1600]],
      ['20th', timelinePng(7040, 85, 7050, 279), [1600]],
    ] as const)
      for (const width of [560, 700, 1400, 1600]) {
        const page = await openPhases('reports/h100-mlp', width, edit);
        const { tip, bars } = (await rowsOf(page))[0]!;
        const frame = bars.find((b) => b.phase === 'Dynamo: whole frame')!;
        const guards = bars.find((b) => b.phase === 'Dynamo: build guards')!;
        const at = `${run} at ${width} px`;
        if ((named as readonly number[]).includes(width)) {
          // past the frame's end, in the track
          assert.match(guards.label ?? '', /guards (97\.4|85) ms$/, at);
          assert.ok(guards.labelLeft >= frame.right && guards.labelRight <= guards.trackX + guards.track, at);
        } else {
          // no room past the frame's end (the axis's end), none left of them (the backend compile): in the hover
          assert.equal(guards.label, null, at);
          assert.ok(tip.includes(`Dynamo: build guards ${run === '19th' ? '97.4' : '85'} ms`), `${at}: ${tip}`);
        }
        await page.close();
      }
  });

  test("a label beside its bar never over it: h100's recompile's 'AOT Autograd 431 ms', its cache diamond at its start, drawn from the diamond on over its bar", async () => {
    for (const folder of CHARTED)
      for (const width of [400, 560, 700]) {
        const page = await openPhases(folder, width);
        const over = (await rowsOf(page))
          .flatMap((r) => r.bars)
          .filter((b) => b.label !== null && !inside(b))
          .filter((b) => b.labelRight > b.x + 0.5 && b.labelLeft < b.right - 0.5)
          .map((b) => `${b.label} over [${b.x}, ${b.right}]`);
        assert.deepEqual(over, [], `${folder} at ${width} px`);
        await page.close();
      }
  });
});
