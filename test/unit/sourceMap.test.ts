// Mapping a log's files (another machine's paths) onto the workspace: a rule, else the longest matching path
// suffix; a file with no copy or two equally good ones stays at the log's path and is said.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Report } from '../../extension/shared/report.ts';
import { mappingNote } from '../../extension/present/logsDigest.ts';
import { mapReport, parseSourceMapRule, reportFiles, SourceMapper } from '../../extension/node/sourceMap.ts';

const WORKSPACE = [
  '/ws/proj/train.py',
  '/ws/proj/models/gpt.py',
  '/ws/other/models/gpt.py',
  '/ws/proj/utils/io.py',
  '/ws/old/utils/io.py',
];

test('the longest matching path suffix wins; a tie is ambiguous; no file of that name is missing', () => {
  const mapper = new SourceMapper(WORKSPACE, []);
  assert.deepEqual(mapper.map('/cluster/u/proj/train.py'), {
    status: 'suffix',
    from: '/cluster/u/proj/train.py',
    to: '/ws/proj/train.py',
  });
  assert.deepEqual(mapper.map('/cluster/u/proj/utils/io.py'), {
    status: 'suffix',
    from: '/cluster/u/proj/utils/io.py',
    to: '/ws/proj/utils/io.py',
  });
  const tie = mapper.map('/cluster/u/repo/models/gpt.py');
  assert.equal(tie.status, 'ambiguous');
  assert.deepEqual(tie.status === 'ambiguous' && tie.candidates, ['/ws/other/models/gpt.py', '/ws/proj/models/gpt.py']);
  assert.deepEqual(mapper.map('/cluster/u/proj/eval.py'), {
    status: 'missing',
    from: '/cluster/u/proj/eval.py',
    to: null,
  });
  assert.deepEqual(mapper.map('/ws/proj/train.py'), {
    status: 'same',
    from: '/ws/proj/train.py',
    to: '/ws/proj/train.py',
  });
});

test('a rule settles what a suffix cannot, names a folder not a longer name, and never lands on a file that is not there', () => {
  const mapper = new SourceMapper(WORKSPACE, [
    parseSourceMapRule('/cluster/u/repo=/ws/other'),
    parseSourceMapRule('/cluster/u/repo/utils=/ws/old/utils'),
  ]);
  assert.equal(mapper.map('/cluster/u/repo/models/gpt.py').to, '/ws/other/models/gpt.py');
  assert.equal(mapper.map('/cluster/u/repo/utils/io.py').to, '/ws/old/utils/io.py'); // the longer rule wins
  assert.deepEqual(mapper.map('/cluster/u/repo/train.py'), {
    status: 'missing',
    from: '/cluster/u/repo/train.py',
    to: null,
    rule: '/cluster/u/repo=/ws/other',
  });
  assert.equal(mapper.map('/cluster/u/repository/train.py').status, 'suffix'); // not under /cluster/u/repo
  assert.throws(() => parseSourceMapRule('/only/one/side'), /FROM|\/path\/on\/the\/cluster=/);
  assert.deepEqual(parseSourceMapRule('C:\\a=b=/ws'), { from: 'C:\\a', to: 'b=/ws' });
});

test('Windows workspaces and mixed separators map by suffix too', () => {
  const mapper = new SourceMapper(['C:\\ws\\proj\\train.py'], [{ from: '/cluster/proj', to: 'C:\\ws\\proj' }]);
  assert.equal(mapper.map('/cluster/proj/train.py').to, 'C:\\ws\\proj\\train.py');
  assert.equal(
    new SourceMapper(['C:\\ws\\proj\\train.py'], []).map('/home/u/proj/train.py').to,
    'C:\\ws\\proj\\train.py',
  );
});

test('every location of a report is mapped; unplaced ones keep the log path and are said', () => {
  const at = (file: string, line: number) => ({ file, line, function: null, code: null });
  const report = {
    target: { kind: 'logs', name: 'x', file: null },
    modes: [
      {
        mode: 'logs',
        compiler: {
          graphCount: 2,
          graphBreaks: [
            {
              reason: 'print',
              location: at('/c/proj/train.py', 9),
              userStack: [at('/c/proj/train.py', 9), at('/c/repo/models/gpt.py', 4)],
            },
          ],
          recompiles: [{ reason: 'size', location: at('<eval_with_key>.1', 3) }],
        },
      },
    ],
    divergence: [{ kind: 'recompile', message: 'm', ranks: [1], location: at('/c/proj/eval.py', 2) }],
  } as unknown as Report;
  assert.deepEqual(reportFiles(report), ['/c/proj/eval.py', '/c/proj/train.py', '/c/repo/models/gpt.py']);
  const { report: mapped, mappings } = mapReport(report, new SourceMapper(WORKSPACE, []));
  const gb = mapped.modes[0]!.compiler!.graphBreaks[0]!;
  assert.equal(gb.location!.file, '/ws/proj/train.py');
  assert.deepEqual(
    gb.userStack.map((f) => f.file),
    ['/ws/proj/train.py', '/c/repo/models/gpt.py'],
  ); // ambiguous: kept
  assert.equal(mapped.divergence![0]!.location!.file, '/c/proj/eval.py');
  assert.equal(mapped.modes[0]!.compiler!.recompiles[0]!.location!.file, '<eval_with_key>.1');
  assert.equal(
    report.modes[0]!.compiler!.graphBreaks[0]!.location!.file,
    '/c/proj/train.py',
    'the input is not changed',
  );
  assert.deepEqual(
    mappings.map((m) => m.status),
    ['missing', 'suffix', 'ambiguous'],
  );
  assert.deepEqual(mappings.map(mappingNote).filter(Boolean), [
    "/c/proj/eval.py: no file of that name in the workspace; findings stay at the log's path",
    "/c/repo/models/gpt.py: several workspace files match it equally (/ws/other/models/gpt.py, /ws/proj/models/gpt.py); findings stay at the log's path — give --source-map FROM=TO (setting compileLens.sourceMap)",
  ]);
});
