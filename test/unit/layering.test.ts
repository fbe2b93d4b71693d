// The layers of the TypeScript side and which way they depend (docs/ARCHITECTURE.md draws them):
//   shared   what both sides read: the report, the host <-> webview messages, the trace model and its wire form (and
//            the runner's protocol: the host, the CLI and the editor's decisions speak it)
//   present  that data in words and numbers for people (digests, findings, labels)
//   editor   the editor's decisions without VS Code (targets in source, one run at a time, findings per file)
//   node     what the host and the CLI do and the webview never does: files, processes, threads, reading a trace into
//            its model, the order of the timeline's messages; no vscode
//   host, cli, webview  the three programs (webview/analysis: what only the webview computes from a model)
// shared, present and editor are browser-safe (no Node builtin, no Node global, no vscode): the webview bundles
// shared and present. scripts/build.mjs also fails the webview bundle on a Node import; this walks every file, type-only
// imports included, which the bundler never sees, and fails on any import cycle between files or layers.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

const LAYERS = ['shared', 'present', 'editor', 'node', 'host', 'cli', 'webview'] as const;
type Layer = (typeof LAYERS)[number];
/** The layers each layer may import from (itself included). */
const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  shared: ['shared'],
  present: ['present', 'shared'],
  editor: ['editor', 'present', 'shared'],
  node: ['node', 'present', 'shared'],
  webview: ['webview', 'present', 'shared'],
  cli: ['cli', 'node', 'present', 'shared'],
  host: ['host', 'node', 'editor', 'present', 'shared'],
};
const BROWSER_SAFE: ReadonlySet<Layer> = new Set(['shared', 'present', 'editor', 'webview']);
/** Node's globals: a browser-safe file using one bundles, then fails in the webview. */
const NODE_GLOBALS: ReadonlySet<string> = new Set([
  'Buffer',
  'process',
  'require',
  '__dirname',
  '__filename',
  'NodeJS',
  'setImmediate',
]);

const rel = (file: string): string => path.relative(ROOT, file);

function layerOf(file: string): Layer | null {
  const [top, sub] = rel(file).split(path.sep);
  if (top === 'webview') return 'webview';
  const layer = LAYERS.find((name) => name === sub && name !== 'webview');
  return top === 'extension' && layer ? layer : null;
}

/** The Node globals a file's code names: not as a property, and not where the file declares that name itself. */
function nodeGlobals(file: string, text: string): string[] {
  const used = new Set<string>();
  const declared = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text)) {
      const parent = node.parent as ts.Node & { name?: ts.Node };
      if (ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isBindingElement(parent))
        declared.add(node.text);
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
  if (!layer) return [`${rel(file)} is in no layer (extension/shared, present, editor, node, host, cli, or webview/)`];
  const problems: string[] = [];
  for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
    const target = spec.startsWith('.') ? path.resolve(path.dirname(file), spec) : null;
    const targetLayer = target === null ? null : layerOf(target);
    const bad =
      spec === 'vscode'
        ? layer !== 'host'
        : isBuiltin(spec)
          ? BROWSER_SAFE.has(layer)
          : targetLayer !== null && !MAY_IMPORT[layer].includes(targetLayer);
    if (bad) problems.push(`${rel(file)} (${layer}) imports ${target === null ? spec : rel(target)}`);
  }
  if (BROWSER_SAFE.has(layer))
    problems.push(...nodeGlobals(file, text).map((name) => `${rel(file)} (${layer}) uses Node's ${name}`));
  return problems;
}

/** The files a file imports by a relative path, type-only and re-exports included. */
function relativeImports(file: string, text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter(({ fileName: spec }) => spec.startsWith('.'))
    .map(({ fileName: spec }) => path.resolve(path.dirname(file), spec));
}

/** Each strongly connected group of more than one node (a cycle), as its nodes sorted; a self-edge is no cycle. */
function cycles(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm: one pass, each node's lowest reachable index on the stack
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next) || next === node) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test('every file of extension/ and webview/ is in a layer and imports only what its layer may', () => {
  const files = [...sources(path.join(ROOT, 'extension')), ...sources(path.join(ROOT, 'webview'))];
  assert.ok(files.length > 50);
  assert.deepEqual(
    files.flatMap((file) => layerProblems(file, readFileSync(file, 'utf8'))),
    [],
  );
});

test('no import cycle: between files (type-only imports included), nor between layers', () => {
  const files = [...sources(path.join(ROOT, 'extension')), ...sources(path.join(ROOT, 'webview'))];
  const edges = new Map(files.map((file) => [rel(file), relativeImports(file, readFileSync(file, 'utf8')).map(rel)]));
  assert.deepEqual(cycles(edges), []);
  assert.deepEqual(cycles(new Map(Object.entries(MAY_IMPORT))), []);
});

/** The bundles' entries (scripts/build.mjs): the webview's, and the Node side's (host, CLI, the scanner's worker). */
const WEBVIEW_ENTRIES = ['webview/main.ts'];
const NODE_ENTRIES = ['extension/host/extension.ts', 'extension/cli/main.ts', 'extension/node/trace/scanWorker.ts'];
/** In shared/ though the webview never reads it: the runner's protocol, which the editor's decisions name too. */
const SHARED_WITHOUT_WEBVIEW: ReadonlySet<string> = new Set(['extension/shared/runnerProtocol.ts']);

/** Every file that `entries` import, directly or through others (type-only imports included), the entries too. */
function reached(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of relativeImports(path.join(ROOT, file), readFileSync(path.join(ROOT, file), 'utf8')))
      if (next.endsWith('.ts')) visit(rel(next));
  };
  entries.forEach(visit);
  return seen;
}

test('shared/ holds only what both sides use: each file is reached from the webview and from the Node side', () => {
  const webview = reached(WEBVIEW_ENTRIES);
  const node = reached(NODE_ENTRIES);
  const problems = sources(path.join(ROOT, 'extension/shared'))
    .map(rel)
    .flatMap((file) => [
      ...(node.has(file) ? [] : [`${file}: the host and the CLI never use it (webview/ is its place)`]),
      ...(webview.has(file) || SHARED_WITHOUT_WEBVIEW.has(file)
        ? []
        : [`${file}: the webview never uses it (node/, or present/, is its place)`]),
    ]);
  assert.deepEqual(problems, []);
});

test('the cycle check finds a cycle of two files, and of three, and nothing in a chain', () => {
  assert.deepEqual(
    cycles(
      new Map([
        ['report.ts', ['sourceMap.ts']],
        ['sourceMap.ts', ['report.ts']],
        ['units.ts', ['units.ts']],
      ]),
    ),
    [['report.ts', 'sourceMap.ts']],
  );
  assert.deepEqual(
    cycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
        ['d', ['a']],
      ]),
    ),
    [['a', 'b', 'c']],
  );
  assert.deepEqual(
    cycles(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
    [],
  );
  const at = path.join(ROOT, 'extension/shared/a.ts');
  assert.deepEqual(
    relativeImports(
      at,
      "import type { R } from './report.ts';\nexport * from '../present/numbers.ts';\nimport x from 'ajv';",
    ).map(rel),
    ['extension/shared/report.ts', 'extension/present/numbers.ts'],
  );
});

test('the check names Node modules, Node globals, vscode and imports against the direction', () => {
  const at = (file: string): string => path.join(ROOT, file);
  const cases: [file: string, text: string, problems: number][] = [
    ['extension/shared/a.ts', "import { readFile } from 'node:fs/promises';\nimport zlib from 'zlib';", 2],
    [
      'extension/shared/a.ts',
      "import type { LoadedReport } from '../node/reportFile.ts';\nexport { x } from '../host/extension.ts';",
      2,
    ],
    [
      'extension/shared/a.ts',
      'export const env = process.env.HOME;\nlet t: NodeJS.Timeout;\nconst b = Buffer.alloc(1);',
      3,
    ],
    [
      'extension/shared/a.ts',
      "import Ajv from 'ajv';\nimport schema from '../../native-runner/x.json';\nconst o = { process: 1 };\no.process;\nconst Buffer = 2;\nBuffer;",
      0,
    ],
    [
      'extension/shared/a.ts',
      "import type { Digest } from '../present/reportDigest.ts';\nimport { runSlot } from '../editor/runSlot.ts';",
      2,
    ],
    [
      'extension/present/a.ts',
      "import type { Report } from '../shared/report.ts';\nimport { x } from '../editor/findingStore.ts';\nimport { readFile } from 'node:fs';",
      2,
    ],
    ['extension/editor/a.ts', "import { f } from '../present/findings.ts';\nimport { r } from '../node/runner.ts';", 1],
    [
      'webview/a.ts',
      "import { x } from '../extension/shared/report.ts';\nimport { d } from '../extension/present/numbers.ts';\nimport { y } from '../extension/node/runner.ts';\nimport { z } from '../extension/editor/runSlot.ts';",
      2,
    ],
    [
      'extension/node/a.ts',
      "import * as vscode from 'vscode';\nimport { spawn } from 'node:child_process';\nimport { y } from '../cli/main.ts';",
      2,
    ],
    ['extension/cli/a.ts', "import { z } from '../host/extension.ts';\nimport { r } from '../node/runner.ts';", 1],
    [
      'extension/host/a.ts',
      "import * as vscode from 'vscode';\nimport path from 'node:path';\nimport { r } from '../node/runner.ts';",
      0,
    ],
    ['extension/node/a.ts', "import { e } from '../editor/runSlot.ts';\nimport { d } from '../present/runList.ts';", 1],
    ['extension/core/a.ts', '', 1],
    ['extension/a.ts', '', 1],
  ];
  for (const [file, text, problems] of cases)
    assert.equal(layerProblems(at(file), text).length, problems, `${file}: ${text}`);
});
