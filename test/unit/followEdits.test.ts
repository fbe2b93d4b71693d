// A finding moves with the edit that moved its line (issue 44 point 6), and so do the lines the runner's sentences
// name: an edit above the line, on every surface — Problems, the hover, a Quick Fix's title, the CodeLens and its
// tooltip, the report panel — says the line where it is now; an edit below it, or in another file, moves nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { regionAfterEdit } from '../../extension/editor/followEdits.ts';
import { FindingStore } from '../../extension/editor/findingStore.ts';
import { BEFORE_EDIT, findingHover, findingMessage } from '../../extension/present/findings.ts';
import { lensTitle } from '../../extension/present/lensLine.ts';
import { digestRegion, regionLine } from '../../extension/present/regionDigest.ts';
import { EditedLines, saidAfterEdits, type TextChange } from '../../extension/shared/movedLines.ts';
import type { Report } from '../../extension/shared/report.ts';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const read = (file: string): Report => JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as Report;

/** Lines inserted at the start of 0-based `line` (a Quick Fix's statement, Enter above). */
const inserted = (line: number, text: string): TextChange => ({
  range: { start: { line, character: 0 }, end: { line, character: 0 } },
  text,
});

test("each way the runner names a line moves with the edit above it, only the number changes; a traceback's, another file's and a line below stay", () => {
  const script = { file: '/w/train.py', cell: null };
  const now = new EditedLines();
  now.set(script, [inserted(4, 'import os\nimport sys\n')]); // two lines above line 5 and below
  const say = (text: string, own: { file: string; cell: number | null } | null = script): string =>
    saidAfterEdits(text, own, now);
  assert.equal(say('the warm-up at size 1 (line 9) compiled'), 'the warm-up at size 1 (line 11) compiled');
  assert.equal(
    say('The warm-up call at line 9 …; the real calls (line 11) pass 4'),
    'The warm-up call at line 11 …; the real calls (line 13) pass 4',
  );
  assert.equal(
    say('broke the graph at train.py:13 inside transformer.py:921'),
    'broke the graph at train.py:15 inside transformer.py:921',
  );
  assert.equal(
    say('# mp/e2erec4/train.py:28 in forward', null),
    '# mp/e2erec4/train.py:30 in forward',
    "a quoted path's file by its name",
  );
  assert.equal(say('line 90 and line 9', script), 'line 92 and line 11', 'each number whole, each moved once');
  assert.equal(
    say('fused kernel 1 of forward (lines 3, 5, 9)'),
    'fused kernel 1 of forward (lines 3, 7, 11)',
    "a kernel's lines, each where it is now",
  );
  assert.equal(say('at line 9, 3 recompiles'), 'at line 11, 3 recompiles', 'one line is no list');
  assert.equal(say('at line 3, above the edit'), 'at line 3, above the edit');
  assert.equal(
    say('File "/w/train.py", line 9, in step'),
    'File "/w/train.py", line 9, in step',
    "a traceback's line is PyTorch's text",
  );
  assert.equal(say('at line 9', { file: '/w/other.py', cell: null }), 'at line 9', "another file's sentence");
  assert.equal(say('at model.py:9'), 'at model.py:9', 'a file that was not edited');

  const notebook = { file: '/w/explore.ipynb', cell: 2 };
  const cells = new EditedLines();
  cells.set(notebook, [inserted(0, '# a\n')]);
  assert.equal(
    saidAfterEdits('at cell 3, line 2', { file: '/w/explore.ipynb', cell: 0 }, cells),
    'at cell 3, line 3',
    "a cell named: that cell's lines",
  );
  assert.equal(saidAfterEdits('at explore.ipynb cell 3, line 2', null, cells), 'at explore.ipynb cell 3, line 3');
  assert.equal(
    saidAfterEdits('at explore.ipynb cell 1, line 2', null, cells),
    'at explore.ipynb cell 1, line 2',
    'another cell',
  );
  assert.equal(saidAfterEdits('(line 2)', notebook, cells), '(line 3)', "the sentence's own cell");
});

test('a line inserted above the warm-up: Problems, the hover, the Quick Fix, the CodeLens and the panel say its line where it is now', () => {
  const report = read('recorded/warmup_step-cpu/report.json');
  const file = report.target.file!;
  const place = { file, cell: null };
  const store = new FindingStore();
  store.add(report);
  const before = store.all();
  const warmup = before.find((f) => f.kind === 'recompile' && f.what?.includes('The warm-up call at line 9'));
  assert.ok(warmup, 'the recorded run names the warm-up at line 9, the real calls at line 11');
  assert.match(findingMessage(warmup), /at line 9\b.*\(line 11\)/);
  assert.match(warmup.quickFixes[0]!.title, /\(line 9\)/);

  // a line below the real calls, and a line in another file, move nothing
  assert.equal(store.moveLines(place, [inserted(12, 'print("done")\n')]), false);
  assert.equal(store.moveLines({ file: '/elsewhere.py', cell: null }, [inserted(0, 'import os\n')]), false);
  assert.deepEqual(store.all(), before);

  const above: TextChange[] = [inserted(0, 'import os\n')];
  assert.ok(store.moveLines(place, above));
  const moved = store.all().find((f) => f.kind === 'recompile' && f.line === warmup.line + 1)!;
  assert.ok(moved, 'the finding on its line, one down');
  // Problems says the sentence (the hover, below it, says the rest: reportA N4)
  assert.match(findingMessage(moved), /at line 10\b/, "Problems: the warm-up's line where it is now");
  assert.match(findingMessage(moved), /\(line 12\)/, "Problems: the real calls' line where it is now");
  for (const [surface, text] of [
    ['Problems', findingMessage(moved)],
    ['hover', findingHover(moved)],
  ] as const)
    assert.doesNotMatch(text, /\bline (9|11)\b/, `${surface}: no line the edit moved`);
  assert.match(moved.fix ?? '', /at line 10\./);
  assert.match(moved.quickFixes[0]!.title, /\(line 10\)/, "the Quick Fix's title");
  assert.equal(moved.quote, warmup.quote, "PyTorch's words stay as PyTorch wrote them");

  // the region's lens: on its moved line, its headline and tooltip naming the warm-up where it is now
  const region = digestRegion(report.regions![0]!);
  assert.match(region.headline, /\(line 9\)/);
  const lens = regionAfterEdit(region, place, place, above);
  assert.equal(lens.line, region.line! + 1);
  for (const text of [lens.headline, regionLine(lens), lens.recommendation?.reason ?? ''])
    assert.ok(text.includes('(line 10)') && !text.includes('(line 9)'), text);
  assert.doesNotMatch(lensTitle(lens.headline, lens.number), /\bline 9\b/, "the lens's title, cut to fit");
  assert.equal(
    regionAfterEdit(region, place, place, [inserted(12, 'x = 1\n')]),
    region,
    'an edit below: the same lens',
  );

  // the panel: the host sends the edits, the webview says the same sentences as the lens
  const panel = new EditedLines();
  panel.set(place, JSON.parse(JSON.stringify(above)) as TextChange[]);
  assert.equal(saidAfterEdits(region.headline, place, panel), lens.headline);
});

test("the fast-path Quick Fix's inserted line: the no-compiled-code sentence names the call's line where it is now", () => {
  const report = read('recorded/encoder_fastpath-h200/report.json');
  const store = new FindingStore();
  store.add(report);
  const finding = store.all().find((f) => f.kind === 'no-compiled-code')!;
  assert.match(findingMessage(finding), /at encoder_fastpath\.py:13 /);
  // the Quick Fix puts its statement after the imports (line 3), above the call at line 13
  assert.ok(
    store.moveLines({ file: finding.file, cell: null }, [
      inserted(3, 'torch.backends.mha.set_fastpath_enabled(False)\n'),
    ]),
  );
  const moved = store.all().find((f) => f.kind === 'no-compiled-code')!;
  assert.equal(moved.line, finding.line + 1);
  assert.match(findingMessage(moved), /at encoder_fastpath\.py:14 inside transformer\.py:921 /);
});

test('an edit of a file a run speaks for: its findings say they are from the run before it, until its next run (reportC N8)', () => {
  // the print fix applied in line 2 of print_step.py: "1 graph break … print_step.py:8" stood unmarked
  const report = read('recorded/print_step-cpu/report.json');
  const store = new FindingStore();
  store.add(report);
  const before = store.all();
  assert.ok(before.length, 'the recorded run has a finding');
  assert.equal(store.edited('/elsewhere.py'), false, "another file's edit");
  assert.ok(!findingMessage(store.all()[0]!).includes(BEFORE_EDIT));
  assert.equal(store.edited(report.target.file!), true);
  assert.equal(store.edited(report.target.file!), false, 'said once');
  assert.deepEqual(
    store.all().map(findingMessage),
    before.map((f) => `${BEFORE_EDIT} — ${findingMessage(f)}`),
    'Problems says it first, where its row is not cut',
  );
  // the next run of the script is after the edit
  store.add(read('recorded/print_step-cpu/report.json'));
  assert.ok(store.all().every((f) => !findingMessage(f).includes(BEFORE_EDIT)));
});
