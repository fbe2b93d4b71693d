// One benchmark measurement in a child process of its own (its peak RSS is the method's): the scanner on the
// timeline's path, the one-pass scanner, or JSON.parse. The child runs what ships: this file bundled by esbuild
// beside dist/scanWorker.js, not tsx (whose loader adds ~50 MB and slows parsing).
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { readTraceFile, traceScanInternals } from '../extension/node/trace/scanner.ts';

/** `firstViewSeconds`: for the scanner, when the preview of the first view was cut (before the model was built). */
export interface Measurement {
  ok: boolean;
  seconds: number;
  firstViewSeconds?: number;
  peakRssMb: number;
  events: number;
  error?: string;
}

async function child(method: string, path: string): Promise<void> {
  const started = performance.now();
  let result: Measurement;
  try {
    let events: number;
    let firstViewSeconds: number | undefined;
    if (method === 'scanner') {
      // what the timeline does: read, cut the preview of the first view, build the model
      const reading = await readTraceFile(path);
      await reading.preview(null);
      firstViewSeconds = (performance.now() - started) / 1000;
      events = (await reading.model()).count;
    } else if (method === '1 thread') events = (await traceScanInternals.scanOnePass(path)).count;
    else events = (JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: unknown[] }).traceEvents.length;
    result = {
      ok: true,
      seconds: (performance.now() - started) / 1000,
      ...(firstViewSeconds === undefined ? {} : { firstViewSeconds }),
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      events,
    };
  } catch (error) {
    result = {
      ok: false,
      seconds: (performance.now() - started) / 1000,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      events: 0,
      error: (error as Error).message.slice(0, 120),
    };
  }
  process.stdout.write(JSON.stringify(result));
}

const REPO = join(__dirname, '..');
const CHILD_BUNDLE = join(REPO, 'dist', 'bench-scan.cjs');
let childBundled = false;

/** Builds the extension's bundles (dist/scanWorker.js among them) and this file's, once per process. */
function bundleChild(): void {
  if (childBundled) return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: REPO, stdio: 'inherit' });
  buildSync({
    entryPoints: [__filename],
    outfile: CHILD_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['esbuild'],
    logLevel: 'warning',
  });
  process.on('exit', () => rmSync(CHILD_BUNDLE, { force: true }));
  childBundled = true;
}

/** Runs one method on `path` in a child process of its own (peak RSS per method): 'scanner', '1 thread' or 'JSON.parse'. */
export function measure(method: string, path: string): Measurement {
  bundleChild();
  const out = execFileSync(process.execPath, ['--max-old-space-size=20000', CHILD_BUNDLE, '--child', method, path], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Measurement;
}

const [, , childFlag, childMethod, childPath] = process.argv;
if (childFlag === '--child') {
  if (childMethod === undefined || childPath === undefined) throw new Error('usage: --child METHOD PATH');
  void child(childMethod, childPath);
}
