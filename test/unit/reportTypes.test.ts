// The report's TypeScript types are generated from its JSON Schema (scripts/reportTypes.ts): the committed file must
// be what the schema makes now, so a field added to the schema reaches TypeScript in the same change.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { reportTypes, TYPES } from '../../scripts/reportTypes.ts';

test('extension/shared/reportTypes.ts is what scripts/reportTypes.ts makes of report.schema.json', async () => {
  assert.equal(
    readFileSync(TYPES, 'utf8'),
    await reportTypes(),
    'the report schema changed: run `npm run report-types`',
  );
});

test('every titled part of the schema is a named type, and no type is named twice (Sides1, RankList1)', () => {
  const names = [...readFileSync(TYPES, 'utf8').matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]!);
  for (const name of [
    'Report',
    'ModeResult',
    'Region',
    'RegionInSitu',
    'InSituSpeedup',
    'InSituPoint',
    'SourceMapping',
    'CudaGraphSkip',
  ])
    assert.ok(names.includes(name), name);
  assert.deepEqual(
    names.filter((name) => /\d$/.test(name)),
    [],
  );
});
