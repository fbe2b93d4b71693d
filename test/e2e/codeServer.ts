// Drives a real VS Code (code-server 4.100.3) in Chromium's headless shell: install the packaged .vsix, open a
// workspace, run palette commands, find webviews. Recipe: ../shared/recipes/code-server.md.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type Frame,
  type Locator,
  type Page,
} from 'playwright-core';
import { HEADLESS_SHELL } from '../chromium.ts';

const REPO = path.resolve(__dirname, '..', '..');

export interface CodeServerEnv {
  root: string;
  entry: string;
  vsix: string;
}

/**
 * A fresh copy of test/e2e/workspace whose settings profile quickly on the CPU with `pythonPath` (absolute: VS Code
 * runs with its own HOME here, which version-manager shims such as pyenv depend on).
 */
export function makeTestWorkspace(pythonPath: string): string {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'cl-ws-'));
  cpSync(path.join(REPO, 'test/e2e/workspace'), workspace, { recursive: true });
  mkdirSync(path.join(workspace, '.vscode'));
  writeFileSync(
    path.join(workspace, '.vscode/settings.json'),
    JSON.stringify({
      'compileLens.pythonPath': pythonPath,
      'compileLens.device': 'cpu',
      'compileLens.modes': ['default'],
      'compileLens.quick': true,
    }),
  );
  return workspace;
}

let prepared: CodeServerEnv | undefined;

/**
 * Makes sure code-server is installed (cached outside the repo) and gives the packaged .vsix: the one scripts/test.sh
 * built and packaged once for every e2e file (COMPILE_LENS_E2E_VSIX), else this process's own build of the bundles
 * (once, however many e2e files it runs).
 */
export function prepareCodeServer(): CodeServerEnv {
  prepared ??= installedCodeServer();
  return prepared;
}

function installedCodeServer(): CodeServerEnv {
  const root = execFileSync('bash', [path.join(REPO, 'test/e2e/setup-code-server.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim();
  const vsix = process.env['COMPILE_LENS_E2E_VSIX'] ?? packageExtension();
  return { root, entry: path.join(root, 'node_modules/code-server/out/node/entry.js'), vsix };
}

function packageExtension(): string {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: REPO, stdio: 'inherit' });
  execFileSync('npm', ['run', '-s', 'package'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] });
  return path.join(REPO, 'dist/compile-lens.vsix');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface Session {
  page: Page;
  home: string;
  close(): Promise<void>;
}

/**
 * The built-in extensions a session has: the languages, notebook support and looks the tests' files and screenshots
 * need. The rest (git, GitHub, emmet, merge-conflict, the
 * TypeScript and JSON language servers, debug auto-attach, …) activated in every window and kept its extension host,
 * server and renderer busy while a test waited (docs/BENCHMARKS.md#test-time, fifth pass).
 */
const BUILTIN_EXTENSIONS = [
  'python',
  'json',
  'log',
  'ipynb',
  'notebook-renderers',
  'markdown-basics',
  'theme-defaults',
  'theme-seti',
];

/** A folder of links to the built-in extensions a session keeps (code-server's --builtin-extensions-dir). */
function builtinExtensions(env: CodeServerEnv, home: string): string {
  const folder = path.join(home, 'builtin-extensions');
  mkdirSync(folder);
  const all = path.join(env.root, 'node_modules/code-server/lib/vscode/extensions');
  for (const name of BUILTIN_EXTENSIONS) symlinkSync(path.join(all, name), path.join(folder, name));
  return folder;
}

/** A running code-server with the .vsix installed: its HOME (user data, extensions) is its own temporary folder. */
interface Server {
  port: number;
  home: string;
  process: ChildProcess;
}

async function startServer(
  env: CodeServerEnv,
  trusted: boolean,
  artifacts: string,
  workspace?: string,
): Promise<Server> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'cl-vscode-'));
  const exts = path.join(home, 'exts');
  const userData = path.join(home, 'user-data');
  mkdirSync(path.join(userData, 'User'), { recursive: true });
  writeFileSync(
    path.join(userData, 'User', 'settings.json'),
    JSON.stringify({
      'security.workspace.trust.enabled': !trusted,
      'security.workspace.trust.startupPrompt': 'never',
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'workbench.enableExperiments': false,
      'editor.hover.delay': 100,
      // nothing repaints unasked: a blinking cursor and animations kept headless Chromium busy between the steps
      'editor.cursorBlinking': 'solid',
      'workbench.reduceMotion': 'on',
    }),
  );
  const processEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_DATA_HOME: path.join(home, 'data'),
  };
  execFileSync(
    'node',
    [env.entry, '--user-data-dir', userData, '--extensions-dir', exts, '--install-extension', env.vsix, '--force'],
    { env: processEnv, stdio: 'ignore' },
  );

  const port = await freePort();
  const serverArgs = [
    env.entry,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir',
    userData,
    '--extensions-dir',
    exts,
    '--builtin-extensions-dir',
    builtinExtensions(env, home),
    ...(trusted ? ['--disable-workspace-trust'] : []),
    ...(workspace ? [workspace] : []),
  ];
  // own process group: the server and its extension hosts (and any runner they started) end together
  const server: ChildProcess = spawn('node', serverArgs, {
    env: processEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  mkdirSync(artifacts, { recursive: true });
  const serverLog = createWriteStream(path.join(artifacts, `code-server-${port}.log`));
  server.stdout!.pipe(serverLog);
  server.stderr!.pipe(serverLog);
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('HTTP server listening')) resolve();
    };
    server.stdout!.on('data', onData);
    server.stderr!.on('data', onData);
    server.once('exit', (code) => reject(new Error(`code-server exited ${code}:\n${seen}`)));
    setTimeout(() => reject(new Error(`code-server did not start:\n${seen}`)), 60_000).unref();
  });
  return { port, home, process: server };
}

/** Keeps VS Code's own logs (extension hosts, windows) next to the screenshots for diagnosis. */
function keepLogs(server: Server, artifacts: string): void {
  cpSync(path.join(server.home, 'user-data', 'logs'), path.join(artifacts, `vscode-logs-${server.port}`), {
    recursive: true,
  });
}

function stopServer(server: Server, artifacts: string): void {
  try {
    process.kill(-server.process.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  server.process.stdout!.destroy();
  server.process.stderr!.destroy();
  keepLogs(server, artifacts);
  rmSync(server.home, { recursive: true, force: true });
}

const VIEWPORT = { width: 1500, height: 950 };

async function openWorkbench(page: Page, port: number, workspace: string): Promise<Page> {
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ timeout: 90_000 });
  return page;
}

/**
 * Under the test runner (`node --test` sets NODE_TEST_CONTEXT) the sessions of one process share one code-server per
 * trust setting and one Chromium context, which end after the process's last test: each session is a page of its own
 * on its own workspace folder, whose window gets its own extension host. Starting a server, installing the .vsix and
 * launching Chromium cost ~8 CPU-s a session (docs/BENCHMARKS.md#test-time). A session's page is closed and its origin's
 * storage cleared after it, so no test sees another's state; the context's HTTP cache stays, with V8's compiled
 * workbench code in it from the second load on (~1 CPU-s less a load: fifth pass). A session's extension host
 * inherits the server's environment, so a test gives its runner settings through its workspace (`stubInterpreter`),
 * not through process.env. Elsewhere (the benches, which read one session's processes) each session has a server and
 * a browser of its own.
 */
const SHARED = process.env['NODE_TEST_CONTEXT'] !== undefined;
const sharedServers = new Map<boolean, { server: Promise<Server>; artifacts: string }>();
let sharedBrowser: Promise<SharedBrowser> | undefined;
if (SHARED)
  after(async () => {
    if (sharedBrowser) await (await sharedBrowser).browser.close().catch(() => undefined);
    for (const { server, artifacts } of sharedServers.values()) stopServer(await server, artifacts);
  });

interface SharedBrowser {
  browser: Browser;
  context: BrowserContext;
  /** a session on a blank page of the context, which no test uses, to clear an origin's storage with */
  cdp: CDPSession;
}

async function launchSharedBrowser(): Promise<SharedBrowser> {
  const browser = await chromium.launch(HEADLESS_SHELL);
  const context = await browser.newContext({ viewport: VIEWPORT });
  return { browser, context, cdp: await context.newCDPSession(await context.newPage()) };
}

export async function startSession(
  env: CodeServerEnv,
  workspace: string,
  opts: { trusted: boolean; artifacts: string },
): Promise<Session> {
  if (!SHARED) {
    const server = await startServer(env, opts.trusted, opts.artifacts, workspace);
    const context = await chromium.launchPersistentContext(path.join(server.home, 'chromium'), {
      ...HEADLESS_SHELL,
      viewport: VIEWPORT,
    });
    return {
      page: await openWorkbench(context.pages()[0] ?? (await context.newPage()), server.port, workspace),
      home: server.home,
      async close() {
        await context.close().catch(() => undefined);
        stopServer(server, opts.artifacts);
      },
    };
  }
  let shared = sharedServers.get(opts.trusted);
  if (!shared) {
    shared = { server: startServer(env, opts.trusted, opts.artifacts), artifacts: opts.artifacts };
    sharedServers.set(opts.trusted, shared);
  }
  const server = await shared.server;
  sharedBrowser ??= launchSharedBrowser();
  const browser = await sharedBrowser;
  const page = await browser.context.newPage();
  const forget = async () => {
    await page.close().catch(() => undefined);
    await browser.cdp
      .send('Storage.clearDataForOrigin', { origin: `http://127.0.0.1:${server.port}`, storageTypes: 'all' })
      .catch(() => undefined);
  };
  await openWorkbench(page, server.port, workspace).catch(async (error: unknown) => {
    await forget();
    throw error;
  });
  return {
    page,
    home: server.home,
    async close() {
      await forget();
      keepLogs(server, opts.artifacts);
    },
  };
}

/**
 * A stand-in for the user's interpreter (test/fixtures/stub-runner/python, which says what `env` sets) with `env` set
 * for it alone: a shell script in a folder of its own, to give a workspace as `compileLens.pythonPath`.
 */
export function stubInterpreter(env: Record<string, string>): string {
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-stub-python-')), 'python');
  writeFileSync(
    file,
    [
      '#!/bin/sh',
      ...Object.entries(env).map(([name, value]) => `export ${name}=${quote(value)}`),
      `exec ${quote(path.join(REPO, 'test/fixtures/stub-runner/python'))} "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return file;
}

/**
 * Moves keyboard focus to the workbench. Keys typed while a webview's iframe has focus may never reach VS Code's
 * keybindings, so every palette or Quick Open use starts here. The sidebar's title is inert when clicked.
 */
export async function focusWorkbench(page: Page): Promise<void> {
  await page
    .locator('.part.sidebar .composite.title')
    .first()
    .click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Escape');
}

/** Opens a quick input with `key` (F1: commands, Control+P: files) and types `text`; false when it did not open. */
async function quickInput(page: Page, key: string, text: string): Promise<boolean> {
  await focusWorkbench(page);
  await page.keyboard.press(key);
  const input = page.locator('.quick-input-widget input.input');
  try {
    await input.waitFor({ state: 'visible', timeout: 3000 });
    await input.fill(text, { timeout: 3000 });
    return true;
  } catch {
    return false;
  }
}

/** Runs a command from the palette; the palette lists extension commands a few seconds after start-up. */
export async function runCommand(page: Page, title: string, tries = 40): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (!(await quickInput(page, 'F1', `>${title}`))) continue;
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await row.waitFor({ timeout: 1000 });
    } catch {
      continue;
    }
    await page.keyboard.press('Enter');
    return;
  }
  throw new Error(`command not in the palette: ${title}`);
}

/** Whether the palette offers a command at all (untrusted workspaces hide the ones that run code). */
export async function paletteHas(page: Page, title: string): Promise<boolean> {
  if (!(await quickInput(page, 'F1', `>${title}`))) throw new Error('the command palette did not open');
  await page.waitForTimeout(1500);
  const rows = await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).count();
  await page.keyboard.press('Escape');
  return rows > 0;
}

/** The frame of our webview whose document matches `selector` (webview iframe → active-frame). */
export async function findWebviewFrame(page: Page, selector: string, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      try {
        if (await frame.$(selector)) return frame;
      } catch {
        // frame navigated away while we looked
      }
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no webview frame with ${selector} within ${timeoutMs} ms`);
}

/** Opens a workspace file through Quick Open (immune to layout shifts such as the Restricted Mode banner). */
export async function openFile(page: Page, name: string): Promise<void> {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 60_000 });
  for (let attempt = 0; attempt < 5; attempt++) {
    if (!(await quickInput(page, 'Control+P', name))) continue;
    await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    await page.locator(`.tabs-container .tab.active[data-resource-name="${name}"]`).waitFor({ timeout: 30_000 });
    return;
  }
  throw new Error(`Quick Open did not open to find ${name}`);
}

/** Waits until the editor hover holding `text` is fully shown: it fades in, and a shot taken while it and what holds it
 *  are not yet opaque shows the code through its text (review 14S S10). Playwright's `visible` counts an element at
 *  opacity 0 as visible, so this asks the page for each ancestor's opacity and running animations. */
export async function hoverShown(page: Page, text: string): Promise<void> {
  await page.waitForFunction((text) => {
    const hover = [...document.querySelectorAll('.monaco-hover')].find((h) => (h.textContent ?? '').includes(text));
    for (let e: Element | null | undefined = hover; e; e = e.parentElement)
      if (Number(getComputedStyle(e).opacity) < 1 || e.getAnimations().some((a) => a.playState !== 'finished'))
        return false;
    return hover !== undefined;
  }, text);
}

/** The editor line showing `text`, and the CodeLens matching `title` drawn right above it (none between). */
export async function lensAbove(
  page: Page,
  text: string,
  title: RegExp,
  timeout: number,
): Promise<{ lens: Locator; gap: number }> {
  const lens = page.locator('.codelens-decoration', { hasText: title }).first();
  await lens.waitFor({ timeout });
  const line = page.locator('.monaco-editor .view-line', { hasText: text }).first();
  const [lensBox, lineBox] = [await lens.boundingBox(), await line.boundingBox()];
  if (!lensBox || !lineBox) throw new Error(`the lens ${title} or the line ${text} is not on screen`);
  return { lens, gap: lineBox.y - (lensBox.y + lensBox.height) };
}

/** Runs the explorer's context-menu entry `item` on the row named `name` (a file or folder at the workspace's top). */
export async function explorerMenu(page: Page, name: string, item: string): Promise<void> {
  const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).first();
  await row.waitFor({ timeout: 60_000 });
  const entry = page.locator('.context-view .monaco-menu .action-item', { hasText: item }).first();
  // the workbench may still be settling: a right-click then opens no menu, or one without our entry
  for (let attempt = 0; attempt < 20; attempt++) {
    await row.click({ button: 'right' });
    try {
      await entry.waitFor({ timeout: 3000 });
      break;
    } catch {
      await page.keyboard.press('Escape');
    }
  }
  // a menu ignores the mouse for a moment after it opens (so the right-click's own release picks nothing)
  await page.waitForTimeout(500);
  await entry.click();
}

/**
 * The names the traces under `runDir` give `kernels` (Inductor's kernel names): a trace prefixes a kernel with its graph's
 * number (`graph_3_cpp_fused_…`), which depends on what compiled before in the process, so tests read it from the run.
 */
export function tracedKernelNames(runDir: string, kernels: string[]): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(runDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.trace.json'),
  )) {
    const trace = JSON.parse(readFileSync(path.join(runDir, file), 'utf8')) as { traceEvents: { name?: string }[] };
    for (const { name = '' } of trace.traceEvents)
      if (kernels.some((k) => name === k || name.endsWith(`_${k}`))) names.add(name);
  }
  return [...names];
}
