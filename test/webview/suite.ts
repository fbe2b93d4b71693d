// Every webview file in one process (scripts/test.sh runs this file), one Chromium held across them all
// (harness.ts: takeBrowser), each file inside a describe named after it so its top-level hooks run around its own
// tests only; every page has its own browser context, closed when its file ends. One file alone:
// node --import tsx --test test/webview/FILE.test.ts.
import { readdirSync } from 'node:fs';
import { after, before, describe } from 'node:test';
import { giveBackBrowser, takeBrowser } from './harness.ts';

describe('webview', () => {
  before(takeBrowser);
  after(giveBackBrowser);
  for (const file of readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.ts'))
    .sort())
    describe(file, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous: the file's tests and hooks are registered inside this describe
      require(`./${file}`);
    });
});
