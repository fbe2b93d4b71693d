// A crafted report.json cannot make the extension read outside its folder: every path it names (mode and eager
// traces, rank traces, generated code) resolves inside the report's folder, source links inside the workspace.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { readTimelineSource } from '../../extension/node/timelineSource.ts';
import { PathRefused, reportFilePath, sourceFilePath } from '../../extension/node/reportPaths.ts';

const FIXTURE = path.resolve(__dirname, '../fixtures/reports/graphbreak-cpu/report.json');
const TRACE =
  '{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 5}]}';

/** home/.ssh/id_rsa (the secret) beside home/runs/r/ (the report's folder, with a real trace in it). */
function layout(): { home: string; dir: string; secret: string } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'cl-report-paths-'));
  mkdirSync(path.join(home, '.ssh'));
  const secret = path.join(home, '.ssh', 'id_rsa');
  writeFileSync(secret, TRACE); // would even parse as a trace: only the path check keeps it out
  const dir = path.join(home, 'runs', 'r');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'eager.trace.json'), TRACE);
  return { home, dir, secret };
}

/** The parts of a report.json that name trace files. */
interface CraftedReport {
  eager: { trace: string | null };
  modes: { status: string; trace: string | null }[];
  ranks?: { rank: number; trace: string }[];
}

function crafted(dir: string, edit: (report: CraftedReport) => void): string {
  const report = JSON.parse(readFileSync(FIXTURE, 'utf8')) as CraftedReport;
  report.eager.trace = 'eager.trace.json';
  for (const mode of report.modes) mode.trace = null;
  edit(report);
  const file = path.join(dir, 'report.json');
  writeFileSync(file, JSON.stringify(report));
  return file;
}

describe('paths in a report', () => {
  test("a report's own trace opens", async () => {
    const { dir } = layout();
    const content = await readTimelineSource({ kind: 'report', reportPath: crafted(dir, () => undefined) });
    assert.deepEqual(
      content.panes.map((p) => p.label),
      ['eager'],
    );
  });

  const escapes: [string, (l: ReturnType<typeof layout>) => string][] = [
    ['an absolute path (~/.ssh/id_rsa)', (l) => l.secret],
    ['../ out of the folder', () => '../../.ssh/id_rsa'],
    ['/dev/zero', () => '/dev/zero'],
    [
      'a link that points out',
      (l) => {
        symlinkSync(l.secret, path.join(l.dir, 'linked.trace.json'));
        return 'linked.trace.json';
      },
    ],
    [
      'a link inside to /dev/zero',
      (l) => {
        symlinkSync('/dev/zero', path.join(l.dir, 'zero.trace.json'));
        return 'zero.trace.json';
      },
    ],
    [
      'a folder linked out',
      (l) => {
        symlinkSync(path.join(l.home, '.ssh'), path.join(l.dir, 'keys'));
        return 'keys/id_rsa';
      },
    ],
    [
      'a FIFO inside',
      (l) => {
        execFileSync('mkfifo', [path.join(l.dir, 'fifo.json')]);
        return 'fifo.json';
      },
    ],
    ['the folder itself', () => '.'],
  ];
  for (const [name, make] of escapes) {
    test(`an eager trace named by ${name} is refused, naming it`, async () => {
      const l = layout();
      const bad = make(l);
      const reportPath = crafted(l.dir, (report) => {
        report.eager.trace = bad;
      });
      await assert.rejects(
        readTimelineSource({ kind: 'report', reportPath }),
        (error: Error) =>
          error instanceof PathRefused &&
          error.message.includes(`eager trace "${bad}"`) &&
          error.message.includes("reads only a report's own files"),
      );
    });
  }

  test('rank traces and region traces are checked the same way', async () => {
    const l = layout();
    const ranks = crafted(l.dir, (report) => {
      report.ranks = [
        { rank: 0, trace: 'eager.trace.json' },
        { rank: 1, trace: l.secret },
      ];
    });
    await assert.rejects(readTimelineSource({ kind: 'report', reportPath: ranks }), /rank 1's trace/);
    const mode = crafted(l.dir, (report) => {
      const [first] = report.modes;
      assert.ok(first, 'the fixture has a mode');
      first.status = 'ok';
      first.trace = '../../.ssh/id_rsa';
    });
    await assert.rejects(
      readTimelineSource({ kind: 'report', reportPath: mode }),
      /default trace "\.\.\/\.\.\/\.ssh\/id_rsa"/,
    );
  });

  test('generated code (any report-relative artifact) resolves inside the folder only', async () => {
    const l = layout();
    mkdirSync(path.join(l.dir, 'compiler'));
    writeFileSync(path.join(l.dir, 'compiler', 'output_code.py'), 'x = 1\n');
    assert.equal(
      await reportFilePath(l.dir, 'compiler/output_code.py', 'generated code'),
      path.join(realpathSync(l.dir), 'compiler', 'output_code.py'),
    );
    await assert.rejects(reportFilePath(l.dir, 'compiler/../../../.ssh/id_rsa', 'generated code'), PathRefused);
    await assert.rejects(reportFilePath(l.dir, 'missing.py', 'generated code'), /Cannot read/);
  });

  test('source links open inside the workspace only', async () => {
    const l = layout();
    const workspace = path.join(l.home, 'project');
    mkdirSync(workspace);
    writeFileSync(path.join(workspace, 'train.py'), 'print(1)\n');
    symlinkSync(l.secret, path.join(workspace, 'innocent.py'));
    assert.equal(
      await sourceFilePath(path.join(workspace, 'train.py'), [workspace]),
      path.join(realpathSync(workspace), 'train.py'),
    );
    await assert.rejects(
      sourceFilePath(l.secret, [workspace]),
      /source links of the workspace only: .*id_rsa is outside/,
    );
    await assert.rejects(sourceFilePath(path.join(workspace, 'innocent.py'), [workspace]), /is a link to/);
    await assert.rejects(sourceFilePath(path.join(workspace, 'train.py'), []), /no folder is open/);
  });
});
