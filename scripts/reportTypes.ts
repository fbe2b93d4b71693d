// The report's TypeScript types, generated from its JSON Schema, the one definition of the report:
// `npm run report-types` writes extension/shared/reportTypes.ts after the schema changed;
// test/unit/reportTypes.test.ts fails while the committed file is not what this makes of the schema.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

const ROOT = path.resolve(__dirname, '..');
export const SCHEMA = path.join(ROOT, 'native-runner/compile_lens_runner/report/report.schema.json');
export const TYPES = path.join(ROOT, 'extension/shared/reportTypes.ts');

const BANNER = `// Generated from native-runner/compile_lens_runner/report/report.schema.json by scripts/reportTypes.ts: edit the
// schema, then run \`npm run report-types\` (test/unit/reportTypes.test.ts fails until then).`;

/** The types' text: one per definition and titled part of the schema, named by its title. */
export async function reportTypes(): Promise<string> {
  const schema = JSON.parse(readFileSync(SCHEMA, 'utf8')) as JSONSchema;
  return compile(schema, 'Report', {
    bannerComment: BANNER,
    cwd: path.dirname(SCHEMA),
    style: { singleQuote: true, printWidth: 120 },
  });
}

if (require.main === module) void reportTypes().then((text) => writeFileSync(TYPES, text));
