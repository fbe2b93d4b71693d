// The layers of the TypeScript side and which way they depend: host and cli -> node -> core; webview -> core.
// core/ and webview/ are bundled into the webview, so they are browser-safe: no Node builtin, no Node global, no
// vscode. node/ is Node-only and never imports vscode (the CLI shares it). scripts/build.mjs also fails the webview
// bundle on a Node import; this walks every file, type-only imports included, which the bundler never sees.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

type Layer = 'core' | 'node' | 'host' | 'cli' | 'webview';
/** The layers each layer may import from (itself included). */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  core: ['core'],
  webview: ['webview', 'core'],
  node: ['node', 'core'],
  cli: ['cli', 'node', 'core'],
  host: ['host', 'node', 'core'],
};
const BROWSER_SAFE: ReadonlySet<Layer> = new Set(['core', 'webview']);
/** Node's globals: a browser-safe file using one bundles, then fails in the webview. */
const NODE_GLOBALS: ReadonlySet<string> = new Set(['Buffer', 'process', 'require', '__dirname', '__filename', 'NodeJS', 'setImmediate']);

const rel = (file: string): string => path.relative(ROOT, file);

function layerOf(file: string): Layer | null {
  const [top, sub] = rel(file).split(path.sep);
  if (top === 'webview') return 'webview';
  return top === 'extension' && (sub === 'core' || sub === 'node' || sub === 'host' || sub === 'cli') ? sub : null;
}

/** The Node globals a file's code names: not as a property, and not where the file declares that name itself. */
function nodeGlobals(file: string, text: string): string[] {
  const used = new Set<string>();
  const declared = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text)) {
      const parent = node.parent as ts.Node & { name?: ts.Node };
      if (ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent)) declared.add(node.text);
      else if (parent.name !== node && !(ts.isQualifiedName(parent) && parent.right === node)) used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true), visit);
  return [...used].filter((name) => !declared.has(name));
}

/** What a file imports or uses that its layer may not, in words. */
function layerProblems(file: string, text: string): string[] {
  const layer = layerOf(file);
  if (!layer) return [`${rel(file)} is in no layer (extension/core, node, host, cli, or webview/)`];
  const problems: string[] = [];
  for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
    const target = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : null;
    const targetLayer = target === null ? null : layerOf(target);
    const bad = spec === 'vscode' ? layer !== 'host'
      : isBuiltin(spec) ? BROWSER_SAFE.has(layer)
      : targetLayer !== null && !MAY_IMPORT[layer].includes(targetLayer);
    if (bad) problems.push(`${rel(file)} (${layer}) imports ${target === null ? spec : rel(target)}`);
  }
  if (BROWSER_SAFE.has(layer)) problems.push(...nodeGlobals(file, text).map((name) => `${rel(file)} (${layer}) uses Node's ${name}`));
  return problems;
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test('every file of extension/ and webview/ is in a layer and imports only what its layer may', () => {
  const files = [...sources(path.join(ROOT, 'extension')), ...sources(path.join(ROOT, 'webview'))];
  assert.ok(files.length > 50);
  assert.deepEqual(files.flatMap((file) => layerProblems(file, readFileSync(file, 'utf8'))), []);
});

test('the check names Node modules, Node globals, vscode and imports against the direction', () => {
  const at = (file: string): string => path.join(ROOT, file);
  const cases: [file: string, text: string, problems: number][] = [
    ['extension/core/a.ts', "import { readFile } from 'node:fs/promises';\nimport zlib from 'zlib';", 2],
    ['extension/core/a.ts', "import type { LoadedReport } from '../node/reportFile.ts';\nexport { x } from '../host/extension.ts';", 2],
    ['extension/core/a.ts', 'export const env = process.env.HOME;\nlet t: NodeJS.Timeout;\nconst b = Buffer.alloc(1);', 3],
    ['extension/core/a.ts', "import Ajv from 'ajv';\nimport schema from '../../native-runner/x.json';\nconst o = { process: 1 };\no.process;\nconst Buffer = 2;\nBuffer;", 0],
    ['webview/a.ts', "import { x } from '../extension/core/report.ts';\nimport { y } from '../extension/node/runner.ts';", 1],
    ['extension/node/a.ts', "import * as vscode from 'vscode';\nimport { spawn } from 'node:child_process';\nimport { y } from '../cli/main.ts';", 2],
    ['extension/cli/a.ts', "import { z } from '../host/extension.ts';\nimport { r } from '../node/runner.ts';", 1],
    ['extension/host/a.ts', "import * as vscode from 'vscode';\nimport path from 'node:path';\nimport { r } from '../node/runner.ts';", 0],
    ['extension/a.ts', '', 1],
  ];
  for (const [file, text, problems] of cases) assert.equal(layerProblems(at(file), text).length, problems, `${file}: ${text}`);
});
