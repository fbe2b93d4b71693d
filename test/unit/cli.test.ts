import assert from 'node:assert/strict';
import { test } from 'node:test';
import { main, parseArgs, parseTargetSpec } from '../../extension/cli.ts';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

test('script arguments after -- are passed through untouched', () => {
  const args = parseArgs(['profile', '--script', 'train.py', '--quick', '--', '--lr', '0.1', '--json']);
  assert.deepEqual(args.passthrough, ['--lr', '0.1', '--json']);
  assert.equal(args.flags.has('--json'), false);
});

test('target spec splits at the last colon', () => {
  assert.deepEqual(parseTargetSpec('/a/b.py:make'), { file: '/a/b.py', fn: 'make' });
  assert.throws(() => parseTargetSpec('model.py'), /path\/to\/file\.py:function_name/);
});

test('usage errors exit 2 with the reason and the usage text', async () => {
  for (const argv of [['profile'], ['profile', '--sample', 'mlp', '--target', 'a.py:f'], ['profile', '--sample', 'mlp', '--device', 'tpu'], ['bogus'], ['check', '--sample', 'mlp'], ['profile', '--nope']]) {
    const { code, err } = await run(argv);
    assert.equal(code, 2, argv.join(' '));
    assert.match(err, /compile-lens: .+\n\nUsage:/);
  }
});

test('summarize of a missing file fails with a readable message, not a stack', async () => {
  const { code, err } = await run(['summarize', '/nonexistent/trace.json']);
  assert.equal(code, 1);
  assert.match(err, /nonexistent\/trace\.json/);
  assert.doesNotMatch(err, /    at /);
});
