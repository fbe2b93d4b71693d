// One esbuild call per bundle: the extension host and CLI run in Node, the timeline in the webview.
import { build } from 'esbuild';

const watch = process.argv.includes('--watch');
const common = { bundle: true, sourcemap: true, minify: !watch, logLevel: 'warning' };
await Promise.all([
  build({ ...common, entryPoints: ['extension/host/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] }),
  build({ ...common, entryPoints: ['extension/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } }),
  // the trace scanner's second thread (extension/node/trace/scanner.ts starts it from beside the bundle)
  build({ ...common, entryPoints: ['extension/node/trace/scanWorker.ts'], outfile: 'dist/scanWorker.js', platform: 'node', format: 'cjs', target: 'node20' }),
  build({ ...common, entryPoints: ['webview/main.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'chrome120' }),
]);
