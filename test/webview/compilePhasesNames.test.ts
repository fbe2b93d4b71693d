// The compile phases on real reports, at the widths the panel opens in: a torchrun job's are every rank's (schema 1.38
// rankPhases: review 10H H3, rank 1's 2-s recompile had no row), and every bar label says what it is: its name and
// time, a shorter name and time, or nothing (its row's hover names it), never its time alone, the labels at a depth
// in their bars' order (review 10H H2 / 10G G5 / 10F F10: "Dynamo: build guards 38.2 ms | 25.6 ms" where trace
// bytecode came first).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { loadReport } from '../../extension/node/reportFile.ts';
import type { Report } from '../../extension/shared/report.ts';
import { CHARTED, FIXTURES, inside, phasesOpener, rowsOf } from './compilePhasesPage.ts';
import { ARTIFACTS, errorsOf } from './harness.ts';

const openPhases = phasesOpener();

describe('compile phases', () => {
  test("a torchrun job's compile phases are each rank's: rank 1's recompiles have rows, each heading its rank's", async () => {
    const { report } = await loadReport(join(FIXTURES, 'reports/ddp-ranks-cpu/report.json'));
    const groups = report.modes[0]!.compiler!.rankPhases!;
    const page = await openPhases('reports/ddp-ranks-cpu', 560);
    const sections = page.locator('details.compile-phases[data-mode="script"]');
    assert.deepEqual(await sections.evaluateAll((ds) => ds.map((d) => (d as HTMLElement).dataset['ranks'])), [
      '0',
      '1',
    ]);
    assert.deepEqual(
      await sections.locator('summary').allInnerTexts(),
      groups.map((g) => `Compile phases — script: ${g.compiler.phasesText}`),
    );
    assert.match(
      groups[1]!.compiler.phasesText!,
      /^7 compiles \(2 graphs; 5 made no graph: 4 stopped at a graph break, 1 resumed after a graph break\) on rank 1, 57.0 s/,
    );
    const rows = async (k: number): Promise<string[]> =>
      (await sections.nth(k).locator('.phase-row:not(.phase-axis) .phase-label').allInnerTexts()).map((l) =>
        l.replace(/\s+/g, ' '),
      );
    // rank 1's recompile at call 3 (its 2-s stall) drawn under rank 1, not under rank 0
    const recompiled = (labels: string[]): string[] => labels.filter((l) => l.includes("recompiled for x's size 8"));
    assert.equal(recompiled(await rows(1)).length, 2, (await rows(1)).join('\n'));
    assert.deepEqual(recompiled(await rows(0)), []);
    assert.equal((await rows(0)).length, 5);
    await page.locator('section.compile-timeline').screenshot({ path: join(ARTIFACTS, 'compile-phases-ranks.png') });
    assert.deepEqual(errorsOf(page), []);
    await page.close();
  });

  for (const folder of CHARTED)
    test(`every bar label names its phase, never its time alone, in its bar's order (${folder})`, async () => {
      let named = 0;
      for (const width of [560, 700, 1400]) {
        const page = await openPhases(folder, width);
        const rows = await rowsOf(page);
        const wrong: string[] = [];
        for (const { tip, bars } of rows) {
          for (const bar of bars) {
            if (bar.label === null) {
              if (!tip.includes(bar.forms[0]!)) wrong.push(`${bar.forms[0]}: hidden, and not in its row's hover`);
              continue;
            }
            named++;
            if (/^[\d.,]+ (?:µs|ms|s)$/.test(bar.label)) wrong.push(`"${bar.label}" (${bar.name}): a bare time`);
            // a form (or one without its count), or in its bar its shortest name alone (its hover says the time)
            const nameAlone = inside(bar) && bar.names.includes(bar.label);
            const form = [...bar.forms, ...(bar.uncounted ?? [])].includes(bar.label);
            if (!(form || nameAlone) || !bar.forms[0]!.startsWith(bar.name))
              wrong.push(`"${bar.label}": not a form of ${bar.name}`);
          }
          // per depth, the labels left to right are their bars left to right
          for (const y of new Set(bars.map((b) => b.y))) {
            const shown = bars.filter((b) => b.y === y && b.label !== null);
            const byBar = [...shown].sort((a, b) => a.x - b.x).map((b) => b.label);
            const byLabel = [...shown].sort((a, b) => a.labelLeft - b.labelLeft).map((b) => b.label);
            if (byBar.join(' | ') !== byLabel.join(' | '))
              wrong.push(`labels ${byLabel.join(' | ')} over bars in the order ${byBar.join(' | ')}`);
            for (let k = 1; k < shown.length; k++) {
              const [a, b] = [byLabel[k - 1], byLabel[k]].map((l) => shown.find((s) => s.label === l)!);
              if (a!.labelRight > b!.labelLeft + 1) wrong.push(`"${a!.label}" over "${b!.label}"`);
            }
          }
        }
        assert.deepEqual(wrong, [], `${folder} at ${width} px`);
        assert.deepEqual(errorsOf(page), []);
        if (folder === 'recorded/train_small-cpu')
          await page
            .locator('section.compile-timeline')
            .screenshot({ path: join(ARTIFACTS, `compile-phases-train_small-${width}.png`) });
        await page.close();
      }
      assert.ok(named > 10, `${named} labels shown`);
    });

  test('a compile that only autotuned is named by the runner as that, not as a recompile (review 13 O6)', async () => {
    for (const width of [560, 700, 1400]) {
      const page = await openPhases('reports/h100-mlp', width);
      const names = (await rowsOf(page)).map(({ tip }) => tip.split('\u00a0·')[0]);
      assert.deepEqual(
        names,
        [
          'compiled function 1',
          "compiled function 1, recompiled for x's size 64 in dimension 0",
          'compiled function 1: only autotuned, made no graph',
        ],
        `${width} px`,
      );
      await page.close();
    }
  });

  test('a frame traced twice says so where its restart is bare: "(given up, restarted)" kept, a restart named only as one (review 15U R4, 19Y Y5)', async () => {
    for (const folder of ['recorded/encoder_fastpath-h200', 'recorded/train_small-cpu', 'reports/ddp-ranks-cpu'])
      for (const width of [560, 700, 1400]) {
        const page = await openPhases(folder, width);
        for (const { tip, bars } of await rowsOf(page)) {
          const traces = bars.filter((b) => b.phase === 'Dynamo: trace bytecode');
          // a count "(again, 1 of 2)" only where every trace it counts is labelled
          const counted = traces.filter((b) => /\(again, \d+ of \d+\)/.test(b.label ?? ''));
          if (counted.length)
            assert.ok(
              traces.every((b) => b.label !== null),
              `${folder} ${width} px, ${tip.split('\n')[0]}: ${counted.map((b) => b.label).join(', ')} beside a bare trace`,
            );
          // a frame's traces labelled are told apart by their attempt, never a bare name beside a restart
          if (traces.length > 1)
            for (const b of traces.filter((t) => t.label !== null))
              assert.match(b.label!, /\((given up, restarted|again)/, `${folder} ${width} px, ${tip.split('\n')[0]}`);
        }
        // the encoder's 671-ms trace, its 0.85-ms restart a sliver: still said to be the first of its attempts
        if (folder === 'recorded/encoder_fastpath-h200') {
          const [first, restart] = (await rowsOf(page))[0]!.bars.filter((b) => b.phase === 'Dynamo: trace bytecode');
          assert.equal(restart?.label, null, `${width} px`);
          assert.match(
            first?.label ?? '',
            /^(Dynamo: )?trace( bytecode)? \(given up, restarted\) 671 ms$/,
            `${width} px`,
          );
        }
        await page.close();
      }
  });

  test('one row says a phase in one form, and a count "(1 of 2)" only where every bar it counts is labelled or it alone (review 13 O5, P6, 15U U5)', async () => {
    for (const folder of ['recorded/train_small-cpu', 'reports/ddp-ranks-cpu', 'reports/h100-mlp', 'reports/fused-cpu'])
      for (const width of [560, 700, 1400]) {
        const page = await openPhases(folder, width);
        // each chart (a mode's, a group of ranks'): its bars' labels with the index of their form, told or not
        const charts = await page.locator('.compile-phases').evaluateAll((cs) =>
          cs.map((c) =>
            [...c.querySelectorAll('.phase-row:not(.phase-axis)')].flatMap((row, k) =>
              [...row.querySelectorAll('g.phase text')].map((t) => {
                const text = t as SVGTextElement;
                const forms = [...(text.dataset['forms'] ?? '').split('\n'), text.dataset['name']];
                const uncounted = text.dataset['uncountedForms']
                  ? [...text.dataset['uncountedForms'].split('\n'), text.dataset['uncountedName']]
                  : null;
                const shown = text.style.display === 'none' ? null : text.textContent;
                return {
                  row: k,
                  phase: text.dataset['phase']!,
                  shown,
                  told: shown === null ? -1 : forms.indexOf(shown),
                  plain: shown === null || !uncounted ? -1 : uncounted.indexOf(shown),
                  among: text.dataset['uncountedName'] ?? null,
                };
              }),
            ),
          ),
        );
        const wrong: string[] = [];
        for (const bars of charts) {
          // one cut per phase per row (review 16Z Z9; its part said per row: review 16X X4)
          for (const [row, phase] of new Set(bars.map((b) => [b.row, b.phase] as const))) {
            const shown = bars.filter((b) => b.row === row && b.phase === phase && b.shown !== null);
            if (new Set(shown.map((b) => Math.max(b.told, b.plain))).size > 1)
              wrong.push(`${phase}: ${shown.map((b) => b.shown).join(' | ')}`);
          }
          for (const bar of bars.filter((b) => b.among !== null && b.shown !== null)) {
            const mates = bars.filter((b) => b.row === bar.row && b.among === bar.among);
            // counted where every mate is labelled, or where it is the only one labelled: its count says it is one
            // of several, a lone "C++ 5.72 s" read as their sum (review 15U U5)
            const said = mates.filter((m) => m.shown !== null).length;
            const counted = said === mates.length || said === 1;
            if (counted !== bar.told >= 0) wrong.push(`"${bar.shown}": ${said} of its ${mates.length} mates labelled`);
          }
        }
        assert.deepEqual(wrong, [], `${folder} at ${width} px`);
        await page.close();
      }
  });

  test("no two bars of a row said alike: a compile's forward's and backward's phases, and a part's several, told apart (review 11K K6 / 11J J7)", async () => {
    const page = await openPhases('reports/ddp-ranks-cpu', 1400);
    const rows = await rowsOf(page);
    const wrong: string[] = [];
    for (const { tip, bars } of rows) {
      const names = bars.map((b) => b.forms[0]!.replace(/ [\d.,]+ (?:µs|ms|s)$/, ''));
      const shown = bars.flatMap((b) => (b.label === null ? [] : [b.label.replace(/ [\d.,]+ (?:µs|ms|s)$/, '')]));
      for (const said of [names, shown])
        for (const name of new Set(said.filter((n, k) => said.indexOf(n) !== k)))
          wrong.push(`${tip.split('\n')[0]}: two bars "${name}"`);
    }
    assert.deepEqual(wrong, []);
    // rank 1's recompile, which compiled its backward with it: each Inductor by its part, the backward's two C++
    // compiles by their order
    const recompile = rows.find((r) => r.tip.startsWith('DistributedDataParallel: forward, recompiled'))!;
    const names = recompile.bars.map((b) => b.name);
    for (const name of [
      'Inductor (forward)',
      'Inductor (backward)',
      'C++ compile (forward)',
      'C++ compile (backward, 1 of 2)',
      'C++ compile (backward, 2 of 2)',
    ])
      assert.ok(names.includes(name), `${name} in ${names.join(' | ')}`);
    await page.close();
  });

  test("each bar is labelled and hovered by the runner's names for it (schema 1.40 labels), not names the panel makes", async () => {
    // the runner's names, marked: the panel draws them as they are, whatever they say
    const marked = (report: Report): void => {
      for (const mode of report.modes)
        for (const compiler of [mode.compiler, ...(mode.compiler?.rankPhases ?? []).map((g) => g.compiler)])
          for (const phase of compiler?.phases ?? [])
            if (phase.labels) {
              const [first, ...rest] = phase.labels;
              phase.labels = [`${first} [runner]`, ...rest.map((label) => `${label} [runner]`)];
            }
    };
    const { report } = await loadReport(join(FIXTURES, 'reports/ddp-ranks-cpu', 'report.json'));
    const groups = report.modes.flatMap((m) => m.compiler?.rankPhases ?? []);
    const told = new Set(groups.flatMap((g) => (g.compiler.phases ?? []).flatMap((p) => p.labels ?? [])));
    assert.ok(told.has('Inductor (backward)') && told.has('C++ compile (backward, 1 of 2)'), [...told].join(' | '));
    const page = await openPhases('reports/ddp-ranks-cpu', 1400, marked);
    const bars = (await rowsOf(page)).flatMap((r) => r.bars);
    assert.ok(bars.length > 0);
    for (const bar of bars) {
      assert.ok(bar.name.endsWith(' [runner]'), `hover: ${bar.name}`);
      assert.ok(
        bar.forms.every((form) => / \[runner\] [\d.,]+ (?:µs|ms|s)$/.test(form)),
        `forms: ${bar.forms.join(' | ')}`,
      );
    }
    assert.ok(bars.some((b) => b.name === 'Inductor (backward) [runner]'));
    await page.close();
  });

  test("a 1.38 or 1.39 report's bar (shortName, no labels) is labelled by its name, then its short name (code read 36 item 7)", async () => {
    const older = (report: Report): void => {
      for (const mode of report.modes)
        for (const phase of mode.compiler?.phases ?? []) {
          delete phase.labels;
          delete phase.uncountedLabels;
          if (phase.name === 'Dynamo: build guards') phase.shortName = 'guards';
        }
    };
    const page = await openPhases('recorded/train_small-cpu', 560, older);
    const guards = (await rowsOf(page)).flatMap((r) => r.bars).filter((b) => b.phase === 'Dynamo: build guards');
    assert.ok(guards.length > 0);
    for (const bar of guards) {
      assert.equal(bar.forms.length, 2, bar.forms.join(' | '));
      assert.match(bar.forms[1]!, /^guards [\d.]+ ms$/);
      assert.deepEqual(bar.names, ['guards']);
    }
    await page.close();
  });

  test('where a bar has room for its name at 1400 px, its name shows, not a shorter form (review 10G G5); a part said alike (review 15U R2)', async () => {
    // train_small's recompiles of step: "trace bytecode 31.3 ms | build guards 57.6 ms", the part they are of
    // ("Dynamo: ") said by neither, as some guards have no room for it
    const page = await openPhases('recorded/train_small-cpu', 1400);
    const rows = await rowsOf(page);
    const shown = rows.flatMap((r) => r.bars).filter((b) => b.label !== null);
    const partOf = (phase: string): string | undefined => /^([^:]+): /.exec(phase)?.[1];
    // a name said whole, with its part or, where its part's phases are said without it, less it
    const whole = (b: (typeof shown)[number]): boolean =>
      b.label === b.forms[0] || (partOf(b.phase) !== undefined && b.label === b.forms[1]);
    const short = shown.filter((b) => !whole(b));
    assert.ok(
      shown.some((b) => b.label!.startsWith('trace bytecode ')),
      shown.map((b) => b.label).join(' | '),
    );
    // fewer shortened than named whole: the wide panel is not labelled as the narrow one is
    assert.ok(short.length < shown.length / 2, `${short.length} of ${shown.length} shortened`);
    // the phases of one part all with it or all without it, in each row (review 16X X4)
    for (const row of rows) {
      const said = row.bars.filter((b) => b.label !== null);
      for (const part of new Set(said.map((b) => partOf(b.phase)).filter((p) => p !== undefined))) {
        const saying = new Set(
          said.filter((b) => partOf(b.phase) === part).map((b) => b.label!.startsWith(`${part}: `)),
        );
        assert.ok(saying.size === 1, `${part}: ${said.map((b) => b.label).join(' | ')}`);
      }
    }
    await page.close();
  });

  test('a wider panel never shortens a name, and a row says a part for all its phases of it or for none (review 16Y Y5, 16X X4)', async () => {
    const widths = [560, 700, 1000, 1400, 2000];
    const partOf = (phase: string): string | undefined => /^([^:]+): /.exec(phase)?.[1];
    for (const folder of CHARTED) {
      const wrong: string[] = [];
      const before = new Map<string, string>();
      for (const width of widths) {
        const page = await openPhases(folder, width);
        const rows = await rowsOf(page);
        rows.forEach(({ bars }, r) => {
          bars.forEach((bar, k) => {
            const key = `row ${r} bar ${k} (${bar.name})`;
            const was = before.get(key);
            // its name, less its time: as long at a wider width, or longer
            const name = bar.label?.replace(/ [\d.,]+ (?:µs|ms|s)$/, '') ?? null;
            if (was !== undefined && (name === null || name.length < was.length))
              wrong.push(`${key}: "${was}" narrower, "${name}" at ${width} px`);
            if (name !== null) before.set(key, name);
          });
          const shown = bars.filter((b) => b.label !== null);
          for (const part of new Set(shown.map((b) => partOf(b.phase)).filter((p) => p !== undefined))) {
            const of = shown.filter((b) => partOf(b.phase) === part);
            if (new Set(of.map((b) => b.label!.startsWith(`${part}: `))).size > 1)
              wrong.push(`row ${r} at ${width} px: ${of.map((b) => b.label).join(' | ')}`);
          }
        });
        await page.close();
      }
      assert.deepEqual(wrong, [], folder);
    }
  });

  test('a part read evenly down a chart: its bars said with it on every row or on none, but rows where one of its phases has no name without it (review 17X X8: "Dynamo: whole frame 2.38 ms" among "whole frame 52.5 ms")', async () => {
    for (const folder of ['recorded/train_small-cpu', 'reports/ddp-ranks-cpu', 'reports/fused-cpu'])
      for (const width of [560, 700, 1400]) {
        const page = await openPhases(folder, width);
        const charts = await page.locator('.compile-phases').evaluateAll((cs) =>
          cs.map((c) =>
            [...c.querySelectorAll('.phase-row:not(.phase-axis)')].map((row) =>
              [...row.querySelectorAll('g.phase text')].map((t) => {
                const text = t as SVGTextElement;
                return {
                  phase: text.dataset['phase']!,
                  label: text.style.display === 'none' ? null : text.textContent,
                  names: [...(text.dataset['forms'] ?? '').split('\n'), text.dataset['name']!],
                };
              }),
            ),
          ),
        );
        const partOf = (phase: string): string | undefined => /^([^:]+): /.exec(phase)?.[1];
        const wrong = charts.flatMap((rows, c) => {
          const saying = new Map<string, Set<string>>();
          for (const row of rows) {
            const shown = row.filter((b) => b.label !== null);
            // a row where a phase labelled has no name without its part ("Inductor: codegen") says that part
            const forced = new Set(
              shown
                .filter((b) => b.names.every((n) => n.startsWith(`${partOf(b.phase)}: `)))
                .map((b) => partOf(b.phase)),
            );
            for (const b of shown) {
              const part = partOf(b.phase);
              if (part === undefined || forced.has(part)) continue;
              const said = saying.get(part) ?? new Set<string>();
              said.add(b.label!.startsWith(`${part}: `) ? `with it: ${b.label}` : `without: ${b.label}`);
              saying.set(part, said);
            }
          }
          return [...saying]
            .filter(([, said]) => new Set([...said].map((s) => s.split(':')[0])).size > 1)
            .map(([part, said]) => `chart ${c}, ${part}: ${[...said].join(' | ')}`);
        });
        assert.deepEqual(wrong, [], `${folder} at ${width} px`);
        await page.close();
      }
  });

  test("the 63-s compile's row hover says its 13 C++ builds' count and time in all, where some are bare (review 17X X4: their total said nowhere)", async () => {
    for (const width of [560, 700, 1400]) {
      const page = await openPhases('reports/fused-cpu', width);
      const [first, recompile] = await rowsOf(page);
      assert.ok(first!.tip.split('\n').includes('13 × C++ compile, 18.5 s in all'), `${width} px: ${first!.tip}`);
      // a phase of one bar has no count: said by its label
      assert.ok(!recompile!.tip.includes(' in all'), `${width} px: ${recompile!.tip}`);
      await page.close();
    }
  });
});

test("the legend says a CPU run's C++ compile as such, a GPU run's kernel compile as C++ or Triton (review 21Y Y2)", async () => {
  const legend = async (fixture: string): Promise<string[]> =>
    (await openPhases(fixture, 1000)).locator('.phase-legend .legend-label').allInnerTexts();
  const cpu = await legend('reports/ddp-ranks-cpu');
  assert.ok(cpu.includes('C++ compile') && !cpu.some((l) => l.includes('kernel')), cpu.join(' | '));
  const gpu = await legend('reports/h100-mlp');
  assert.ok(gpu.includes('kernel compile (C++ or Triton)'), gpu.join(' | '));
});

test("a CPU run's bars say its codegen as C++, as its legend says its C++ compile (review 22X X3)", async () => {
  for (const fixture of ['reports/fused-cpu', 'reports/ddp-ranks-cpu']) {
    const page = await openPhases(fixture, 1400);
    const forms = await page
      .locator('.compile-phases g.phase text')
      .evaluateAll((ts) => ts.flatMap((t) => ((t as SVGTextElement).dataset['forms'] ?? '').split('\n')));
    assert.ok(
      forms.some((f) => f.startsWith('Inductor: C++ codegen')),
      `${fixture}: ${forms.join(' | ')}`,
    );
    assert.ok(
      !forms.some((f) => f.includes('kernel')),
      `${fixture}: ${forms.filter((f) => f.includes('kernel')).join(' | ')}`,
    );
  }
});
