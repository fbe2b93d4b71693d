import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { FindingStore, runKey } from '../../extension/editor/findingStore.ts';
import { collectFindings } from '../../extension/present/findings.ts';
import type { Report } from '../../extension/shared/report.ts';
import { runHeadline } from '../../extension/present/headline.ts';
import { runListEntry, runTabTitle, sortRuns } from '../../extension/present/runList.ts';
import { compareRuns, compareTitle } from '../../extension/present/runCompare.ts';
import { headerWords } from '../../extension/present/reportDigest.ts';
import { reportTitle } from '../../extension/node/timelineSource.ts';

const FIXTURES = path.resolve(__dirname, '../fixtures');
const fixture = (name: string): Report =>
  JSON.parse(readFileSync(path.join(FIXTURES, name, 'report.json'), 'utf8')) as Report;

// a real run of train_small.py (test/fixtures/recorded/README.md): four regions, recompiles and a graph break
const TRAIN_SMALL = 'recorded/train_small-cpu';

/** A fixture report moved to `file`: its target and every location in it. */
function movedTo(report: Report, file: string): Report {
  const from = report.target.file!;
  return JSON.parse(JSON.stringify(report).split(JSON.stringify(from).slice(1, -1)).join(file)) as Report;
}

test("a run of another file never clears a file's findings; a newer run of the same file replaces them", () => {
  const store = new FindingStore();
  const first = movedTo(fixture(TRAIN_SMALL), '/ws/a.py');
  const second = movedTo(fixture('reports/graphbreak-cpu'), '/ws/b.py');
  store.add(first);
  const ofA = store.all().filter((f) => f.file === '/ws/a.py');
  assert.ok(ofA.length > 0, 'a.py has findings');
  store.add(second);
  assert.deepEqual(
    store.all().filter((f) => f.file === '/ws/a.py'),
    ofA,
    "profiling b.py kept a.py's findings",
  );
  assert.ok(
    store.all().some((f) => f.file === '/ws/b.py'),
    "and added b.py's",
  );
  // a.py again, now clean: its findings go, b.py's stay
  store.add({ ...first, modes: first.modes.map((m) => ({ ...m, compiler: null })), regions: [] });
  assert.deepEqual(
    store.all().filter((f) => f.file === '/ws/a.py'),
    [],
  );
  assert.ok(store.all().some((f) => f.file === '/ws/b.py'));
  store.clear();
  assert.deepEqual(store.all(), []);
});

test("a file two runs covered shows the latest run's findings only, not both", () => {
  const store = new FindingStore();
  const older = movedTo(fixture(TRAIN_SMALL), '/ws/lib.py');
  const newer = {
    ...movedTo(fixture('reports/graphbreak-cpu'), '/ws/lib.py'),
    target: { kind: 'function' as const, name: 'x', file: '/ws/lib.py', function: 'compile_target' },
  };
  assert.notEqual(runKey(older.target), runKey(newer.target));
  store.add(older);
  store.add(newer);
  const shown = store.all().filter((f) => f.file === '/ws/lib.py');
  assert.deepEqual(shown, collectFindings(newer), "the newer run's findings, and none of the older run's");
  assert.ok(
    !shown.some((f) => f.reason.includes('size mismatch')),
    "the older script run's recompiles at lib.py are hidden",
  );
});

test('the Runs view lists a run by its file, time and headline, newest first', () => {
  const script = fixture(TRAIN_SMALL);
  const entry = runListEntry(script, '/ws/.compile-lens/runs/a/report.json', new Date(script.createdAt));
  // what ran and when, in the label, which a narrow view keeps (reportC J10: at the row's end the time was cut away)
  assert.equal(entry.name, 'train_small.py');
  assert.match(entry.label, /^train_small\.py \d\d:\d\d:\d\d$/);
  assert.equal(entry.description, script.headline!, "the runner's headline, as it wrote it");
  assert.match(entry.tooltip, /^train_small\.py — \d{4}-\d\d-\d\d \d\d:\d\d:\d\d, ok$/m);
  // two runs of one file within a minute read apart, and their tabs say the time their rows and the compare say
  // (reportC N9: the tab said the run folder's start time)
  const today = new Date('2026-11-29T20:30:00Z');
  const at = (iso: string, now = today) => runListEntry({ ...script, createdAt: iso }, '/ws/c/report.json', now).label;
  assert.notEqual(at('2026-11-29T20:25:03Z'), at('2026-11-29T20:25:41Z'));
  const rerun = { ...script, createdAt: '2026-11-29T20:25:41Z' };
  const clock = at(rerun.createdAt).split(' ').pop()!;
  assert.equal(runTabTitle(rerun, today), `Compile Lens: train_small ${clock}`);
  // a run of another day says its day (report3C R6: a recording of yesterday read as made today), of another year its year
  const nextWeek = new Date(today.getTime() + 7 * 24 * 3600_000);
  const day = `${new Date(rerun.createdAt).toDateString().slice(4, 10).replace(/ 0/, ' ')}`;
  assert.equal(runTabTitle(rerun, nextWeek), `Compile Lens: train_small ${day} ${clock}`);
  assert.equal(at(rerun.createdAt, nextWeek), `train_small.py ${day} ${clock}`);
  assert.match(runTabTitle(rerun, new Date('2028-06-01T12:00:00Z')), / 2026 \d\d:\d\d:\d\d$/);
  assert.ok(compareTitle(script, rerun, today).endsWith(` ${clock}`), compareTitle(script, rerun, today));
  assert.equal(compareRuns(script, rerun, today).runs[1].when, clock);
  assert.match(entry.tooltip, / — normalize$/m); // a region by its name (the runner's label)
  // a report before schema 1.18 has no headline: the runner's verdict sentence stands in, nothing composed
  const { headline: _, ...older } = script;
  assert.equal(runHeadline(older), script.recommendation.reason);
  const later = runListEntry(
    { ...fixture('reports/graphbreak-cpu'), createdAt: '2099-01-01T00:00:00Z' },
    '/ws/b/report.json',
  );
  assert.deepEqual(
    sortRuns([entry, later]).map((e) => e.reportPath),
    ['/ws/b/report.json', entry.reportPath],
  );
});

test('a function target is named one way in every title: its tab, its timeline and its header say it as written', () => {
  const fused = fixture('reports/fused-cpu');
  assert.equal(fused.target.name, 'fused-compile_target', 'the folder name, which no title says');
  assert.match(
    runTabTitle(fused, new Date(fused.createdAt)),
    /^Compile Lens: compile_target in fused\.py \d\d:\d\d:\d\d$/,
  );
  assert.equal(reportTitle(fused), 'Compile Lens — compile_target in fused.py');
  assert.match(headerWords(fused), /^compile_target in fused\.py on cpu /);
});
