// Every webview file in one process (scripts/test.sh runs this file), one Chromium held across them all
// (harness.ts: takeBrowser), each file in a describe of its own (fileSuites.ts); every page has its own browser
// context, closed when its file ends. One file alone: node --import tsx --test test/webview/FILE.test.ts.
import { after, before, describe } from 'node:test';
import { describeEachFile } from '../fileSuites.ts';
import { giveBackBrowser, takeBrowser } from './harness.ts';

describe('webview', () => {
  before(takeBrowser);
  after(giveBackBrowser);
  describeEachFile(__dirname);
});
