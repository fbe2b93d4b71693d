import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FindingStore } from '../../extension/editor/findingStore.ts';
import {
  EditedLines,
  movedLine,
  movedLineAfter,
  movedLineKeys,
  type TextChange,
} from '../../extension/shared/movedLines.ts';
import { quickFixEdit } from '../../extension/editor/quickFixes.ts';
import type { Report } from '../../extension/shared/report.ts';

/** A change replacing (line:character)–(endLine:endCharacter) with `text`. */
const change = (line: number, character: number, endLine: number, endCharacter: number, text: string): TextChange => ({
  range: { start: { line, character }, end: { line: endLine, character: endCharacter } },
  text,
});

/** Applies a change to a text, as the editor does: the lines of the text after it. */
function applied(lines: string[], c: TextChange): string[] {
  const text = lines.join('\n');
  const offset = (line: number, character: number): number =>
    lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + character;
  const { start, end } = c.range;
  return (
    text.slice(0, offset(start.line, start.character)) +
    c.text +
    text.slice(offset(end.line, end.character))
  ).split('\n');
}

const FILE = ['import torch', '', '@torch.compile', 'def step(x):', '    print("step")', '    return x * 2', ''];
const PRINT = 4;

test('a line follows the edits above it, and stays for edits on or below it', () => {
  const cases: [string, TextChange, number][] = [
    ['a line inserted above (a Quick Fix after the imports)', change(1, 0, 1, 0, 'import x\n'), PRINT + 1],
    ['two lines inserted at its first column', change(PRINT, 0, PRINT, 0, 'a\nb\n'), PRINT + 2],
    ['Enter at the end of the line above', change(3, 12, 3, 12, '\n    '), PRINT + 1],
    ['a line above deleted', change(1, 0, 2, 0, ''), PRINT - 1],
    ['typing within the line', change(PRINT, 4, PRINT, 9, 'log'), PRINT],
    ['Enter at the end of the line itself', change(PRINT, 17, PRINT, 17, '\n    '), PRINT],
    ['a line inserted below', change(5, 0, 5, 0, 'z = 1\n'), PRINT],
    ['the line itself replaced by one line', change(PRINT, 0, PRINT, 17, '    pass'), PRINT],
  ];
  for (const [what, c, expected] of cases) {
    const to = movedLine(PRINT, c);
    assert.equal(to, expected, what);
    const after = applied(FILE, c);
    if (!what.includes('replaced') && !what.includes('typing'))
      assert.equal(after[to], FILE[PRINT], `${what}: the line's text is on the line it moved to`);
  }
});

test('a line inside a deleted block lands where the block was; one inside a replaced block stays within the new text', () => {
  assert.equal(movedLine(PRINT, change(2, 0, 6, 0, '')), 2, 'the function deleted: where it was');
  assert.equal(
    movedLine(PRINT, change(0, 0, 6, 0, FILE.slice(0, 6).join('\n') + '\n')),
    PRINT,
    'the whole text replaced by itself (a formatter): it stays',
  );
  assert.equal(movedLine(PRINT, change(3, 0, 6, 0, 'pass\n')), 4, 'replaced by one line: at its end');
});

test("an event's changes apply in order, each on the text the previous one left", () => {
  const first = change(0, 0, 0, 0, '# a\n');
  const second = change(0, 0, 0, 0, '# b\n');
  assert.equal(movedLineAfter(PRINT, [first, second]), PRINT + 2);
  assert.equal(movedLineAfter(PRINT, [first, change(1, 0, 2, 0, '')]), PRINT, 'added, then the old first line removed');
});

test("the Quick Fix's edit moves the findings on the line it moved, and only in the file it edited; the report panel's links follow it to the same lines", () => {
  const FIXTURES = path.resolve(__dirname, '../fixtures');
  const report = JSON.parse(
    readFileSync(path.join(FIXTURES, 'recorded/encoder_fastpath-h200/report.json'), 'utf8'),
  ) as Report;
  const store = new FindingStore();
  store.add(report);
  const before = store.all();
  const finding = before.find((f) => f.quickFixes.length);
  assert.ok(finding, 'the recorded run has a finding with a Quick Fix');
  // the recorded script, as it was run (the report names where it ran)
  const source = readFileSync(path.join(FIXTURES, 'why/encoder_fastpath.py'), 'utf8');
  const edit = quickFixEdit(finding.quickFixes[0]!, source);
  assert.ok(edit);
  const changes = edit.edits.map((e) => change(e.line, e.column, e.endLine, e.endColumn, e.text));
  const fixed = changes.reduce(applied, source.split('\n'));

  assert.equal(store.moveLines({ file: '/elsewhere.py', cell: null }, changes), false, "another file's edit");
  assert.deepEqual(store.all(), before, 'moves nothing');
  assert.ok(store.moveLines({ file: finding.file, cell: null }, changes), 'a finding moved');
  for (const [was, now] of before.map((f, i) => [f, store.all()[i]!] as const)) {
    assert.equal(
      fixed[now.line - 1],
      source.split('\n')[was.line - 1],
      `${now.code}: Problems, hover and Quick Fix follow the code to its new line`,
    );
    assert.equal(now.line, was.line + 1);
  }

  // the host keeps the panel's edits; the webview moves its links with the list the host sends it
  const place = { file: finding.file, cell: null };
  const sent = new EditedLines().add(place, changes);
  assert.ok(sent);
  const panel = new EditedLines();
  panel.set(place, JSON.parse(JSON.stringify(sent)) as TextChange[]);
  for (const [was, now] of before.map((f, i) => [f, store.all()[i]!] as const))
    assert.equal(panel.line(place, was.line), now.line, `${now.code}: the panel's link goes where Problems does`);
  assert.equal(panel.line({ file: '/elsewhere.py', cell: null }, 13), 13, "another file's lines stay");
  assert.equal(panel.line({ file: finding.file, cell: 0 }, 13), 13, "a notebook cell's lines are another place's");
});

test('a panel keeps only the edits that moved lines, in order, as plain data', () => {
  const place = { file: '/w/step.py', cell: null };
  const edited = new EditedLines();
  assert.equal(edited.add(place, [change(PRINT, 4, PRINT, 9, 'log')]), null, 'typing within a line moves none');
  // VS Code's Range says itself as [start, end] in JSON: what goes to the webview must be the plain shape
  const range = { start: { line: 1, character: 0 }, end: { line: 1, character: 0 }, toJSON: () => [] };
  const sent = edited.add(place, [{ range, text: 'import x\n' }, change(0, 0, 0, 0, '# a\n')]);
  assert.deepEqual(JSON.parse(JSON.stringify(sent)), [change(1, 0, 1, 0, 'import x\n'), change(0, 0, 0, 0, '# a\n')]);
  assert.equal(edited.line(place, PRINT + 1), PRINT + 3);
  assert.deepEqual(
    edited.places().map((p) => [p.place, p.changes.length]),
    [[place, 2]],
    'what a panel drawn again is sent',
  );
});

test("a compiled line's hover entries follow their lines; lines an edit merged keep both", () => {
  const byLine = new Map([
    [2, ['kernel a']],
    [5, ['kernel b']],
    [6, ['kernel c']],
  ]);
  assert.deepEqual(
    [...movedLineKeys(byLine, [change(0, 0, 0, 0, '# fix\n')])],
    [
      [3, ['kernel a']],
      [6, ['kernel b']],
      [7, ['kernel c']],
    ],
  );
  // line 5 (0-based 4) and its line break deleted: line 6 moves up onto where 5 was
  assert.deepEqual(
    [...movedLineKeys(byLine, [change(4, 0, 5, 0, '')])],
    [
      [2, ['kernel a']],
      [5, ['kernel b', 'kernel c']],
    ],
  );
});
