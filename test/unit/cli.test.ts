import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { main, parseArgs, parseTargetSpec } from '../../extension/cli/main.ts';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

test('script arguments after -- are passed through untouched', () => {
  const args = parseArgs(['profile', '--script', 'train.py', '--quick', '--', '--lr', '0.1', '--json']);
  assert.deepEqual(args.passthrough, ['--lr', '0.1', '--json']);
  assert.equal(args.values.json, undefined);
  assert.equal(args.values.quick, true);
});

test('target spec splits at the last colon', () => {
  assert.deepEqual(parseTargetSpec('/a/b.py:make'), { file: '/a/b.py', fn: 'make' });
  assert.throws(() => parseTargetSpec('model.py'), /path\/to\/file\.py:function_name/);
});

test('usage errors exit 2 with the reason and the usage text', async () => {
  for (const argv of [
    ['profile'],
    ['profile', '--sample', 'mlp', '--target', 'a.py:f'],
    ['profile', '--sample', 'mlp', '--device', 'tpu'],
    ['bogus'],
    ['check', '--sample', 'mlp'],
    ['profile', '--nope'],
  ]) {
    const { code, err } = await run(argv);
    assert.equal(code, 2, argv.join(' '));
    assert.match(err, /compile-lens: .+\n\nUsage:/);
  }
});

test('usage errors keep their wording: missing value, unknown option, bad number, bad choice, value on a switch', async () => {
  const cases: [string[], RegExp][] = [
    [['profile', '--sample'], /^compile-lens: --sample needs a value\n/],
    [['profile', '--sample', 'mlp', '--nope'], /^compile-lens: unknown option --nope\n/],
    [['profile', '--sample', 'mlp', '-x'], /^compile-lens: unknown option -x\n/],
    [
      ['profile', '--sample', 'mlp', '--rounds', 'many'],
      /^compile-lens: --rounds must be a whole number, got "many"\n/,
    ],
    [['profile', '--sample', 'mlp', '--rounds', '-3'], /^compile-lens: --rounds must be a whole number, got "-3"\n/],
    [
      ['profile', '--sample', 'mlp', '--dynamic', 'maybe'],
      /^compile-lens: --dynamic must be one of auto, true, false\n/,
    ],
    [['profile', '--sample', 'mlp', '--json=yes'], /^compile-lens: --json takes no value\n/],
    [['check', '--sample', 'mlp'], /^compile-lens: check needs --max-graph-breaks N and\/or --max-recompiles M\n/],
    [
      ['profile', '--sample', 'mlp', '--script', 'a.py'],
      /^compile-lens: give exactly one of --sample NAME, --target FILE:FN, --script FILE\n/,
    ],
  ];
  for (const [argv, message] of cases) {
    const { code, err } = await run(argv);
    assert.equal(code, 2, argv.join(' '));
    assert.match(err, message, argv.join(' '));
  }
});

test('a value may follow its flag after "=", and a later flag wins', () => {
  const args = parseArgs(['profile', '--sample=mlp', '--modes', 'default', '--modes=max-autotune']);
  assert.equal(args.values.sample, 'mlp');
  assert.equal(args.values.modes, 'max-autotune');
});

test('--help prints the usage and exits 0; no command prints it and exits 2', async () => {
  for (const argv of [['profile', '--help'], ['--help'], ['-h'], ['help']]) {
    const help = await run(argv);
    assert.equal(help.code, 0, argv.join(' '));
    assert.match(help.out, /^Usage:\n {2}compile-lens profile/, argv.join(' '));
    assert.equal(help.err, '', argv.join(' '));
  }
  const none = await run([]);
  assert.equal(none.code, 2);
  assert.match(none.out, /^Usage:/);
});

test('summarize of a missing file fails with a readable message, not a stack', async () => {
  const { code, err } = await run(['summarize', '/nonexistent/trace.json']);
  assert.equal(code, 1);
  assert.match(err, /nonexistent\/trace\.json/);
  assert.doesNotMatch(err, / {4}at /);
});

test('summarize of a report (its folder, as profile prints it, or report.json) prints what profile printed', async () => {
  const folder = path.resolve(__dirname, '..', 'fixtures', 'recorded', 'train_small-cpu');
  const byFolder = await run(['summarize', folder]);
  assert.equal(byFolder.code, 0, byFolder.err);
  assert.match(byFolder.out, /^Compile Lens — train_small on cpu .*\n {2}TinyTransformer — /);
  assert.match(byFolder.out, new RegExp(`report: ${folder}/report\\.json\\n$`));
  const byFile = await run(['summarize', `${folder}/report.json`]);
  assert.equal(byFile.out, byFolder.out);
  const json = JSON.parse((await run(['summarize', folder, '--json'])).out) as { regions: { id: string }[] };
  assert.deepEqual(
    json.regions.map((r) => r.id),
    ['r0', 'r1', 'r2', 'r3'],
  );
  const empty = await run(['summarize', path.resolve(__dirname, '..', 'fixtures')]);
  assert.equal(empty.code, 1);
  assert.match(empty.err, /report\.json/);
  assert.doesNotMatch(empty.err, / {4}at /);
});
