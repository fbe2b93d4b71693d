// One esbuild call per bundle: the extension host and CLI run in Node, the timeline in the webview.
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const watch = process.argv.includes('--watch');
/** @type {import('esbuild').BuildOptions} */
const common = { bundle: true, sourcemap: true, minify: !watch, logLevel: 'warning' };

/** Folders the webview must not bundle: Node-only code, the editor's decisions, the VS Code host, the CLI (webview/ may
 * import extension/shared and extension/present only). */
const NOT_BROWSER_SAFE = ['node', 'editor', 'host', 'cli'].map(
  (folder) => path.resolve('extension', folder) + path.sep,
);

/**
 * Fails the webview build on any import of a Node builtin, of `vscode`, or of a file outside the browser-safe folders.
 * @type {import('esbuild').Plugin}
 */
const browserSafe = {
  name: 'browser-safe',
  setup(build) {
    build.onResolve({ filter: /.*/ }, ({ path: spec, importer, resolveDir, kind }) => {
      if (kind === 'entry-point') return undefined;
      const file = spec.startsWith('.') ? path.resolve(resolveDir, spec) : null;
      const bad = isBuiltin(spec)
        ? `the Node module "${spec}"`
        : spec === 'vscode'
          ? 'the VS Code API'
          : file && NOT_BROWSER_SAFE.some((folder) => file.startsWith(folder))
            ? path.relative(process.cwd(), file)
            : null;
      return bad
        ? {
            errors: [
              {
                text: `${path.relative(process.cwd(), importer)} imports ${bad}: the webview bundle may use extension/shared, extension/present and webview/ only`,
              },
            ],
          }
        : undefined;
    });
  },
};

await Promise.all([
  build({
    ...common,
    entryPoints: ['extension/host/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  }),
  build({
    ...common,
    entryPoints: ['extension/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  }),
  // the trace scanner's second thread (extension/node/trace/scanner.ts starts it from beside the bundle)
  build({
    ...common,
    entryPoints: ['extension/node/trace/scanWorker.ts'],
    outfile: 'dist/scanWorker.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  }),
  build({
    ...common,
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    plugins: [browserSafe],
  }),
]);
