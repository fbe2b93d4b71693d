// Every unit file in one process (scripts/test.sh runs this file): one Node and one tsx load for the directory, not
// one per file (~0.8 CPU-s each), and the modules they share compiled once. Each file runs inside a describe named
// after it, so its top-level before/after hooks are its own and run around its tests only. One file alone:
// node --import tsx --test test/unit/FILE.test.ts.
import { readdirSync } from 'node:fs';
import { describe } from 'node:test';

for (const file of readdirSync(__dirname)
  .filter((f) => f.endsWith('.test.ts'))
  .sort())
  describe(file, () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous: the file's tests and hooks are registered inside this describe
    require(`./${file}`);
  });
