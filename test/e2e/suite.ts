// Every e2e file in one process (scripts/test.sh runs this file), so their sessions share one code-server and one
// Chromium (codeServer.ts: ~8 CPU-s a session); one file alone: node --import tsx --test test/e2e/FILE.test.ts.
import { readdirSync } from 'node:fs';

for (const file of readdirSync(__dirname)
  .filter((f) => f.endsWith('.test.ts'))
  .sort())
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous: each file's tests are registered in order, before the first runs
  require(`./${file}`);
