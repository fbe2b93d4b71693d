// The unit and webview suites (test/unit/suite.ts, test/webview/suite.ts): a directory's test files in one process.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'node:test';

/**
 * Requires every *.test.ts file of `dir`, in name order, each inside a describe named after it: node:test registers a
 * file's top-level before/after hooks on the describe running when it is required, so they run around its tests only.
 */
export function describeEachFile(dir: string): void {
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .sort())
    describe(file, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous: the file's tests and hooks are registered inside this describe
      require(join(dir, file));
    });
}
