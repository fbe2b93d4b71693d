// Scanner vs JSON.parse on tiled real traces, each measured in its own child process (peak RSS per method).
// "scanner" is what the timeline does (two halves on two threads from 64 MB, the first view's preview cut from the
// raw columns, then the model built); "1 thread" is the one-pass read of the same file to its model.
//   node --import tsx bench/scan.ts [--rounds N] [SIZE_MB ...]   (default 1 round of 100 500 2048; files are generated
//   in /tmp, flushed to disk before timing (background writeback slowed whichever method ran first), and deleted)
import { execFileSync } from 'node:child_process';
import { closeSync, fsyncSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTraceFile, traceScanInternals } from '../extension/core/trace/scanner.ts';
import { generateTrace } from './gen-trace.ts';

/** `firstViewSeconds`: for the scanner, when the preview of the first view was cut (before the model was built). */
export interface Measurement { ok: boolean; seconds: number; firstViewSeconds?: number; peakRssMb: number; events: number; error?: string }

async function child(method: string, path: string): Promise<void> {
  const started = performance.now();
  let result: Measurement;
  try {
    let events: number;
    let firstViewSeconds: number | undefined;
    if (method === 'scanner') {
      // what the timeline does: read, cut the preview of the first view, build the model
      const reading = await readTraceFile(path);
      reading.preview(null);
      firstViewSeconds = (performance.now() - started) / 1000;
      events = reading.model().count;
    }
    else if (method === '1 thread') events = (await traceScanInternals.scanOnePass(path)).count;
    else events = (JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: unknown[] }).traceEvents.length;
    result = { ok: true, seconds: (performance.now() - started) / 1000, firstViewSeconds, peakRssMb: process.resourceUsage().maxRSS / 1024, events };
  } catch (error) {
    result = { ok: false, seconds: (performance.now() - started) / 1000, peakRssMb: process.resourceUsage().maxRSS / 1024, events: 0, error: (error as Error).message.slice(0, 120) };
  }
  process.stdout.write(JSON.stringify(result));
}

/** Runs one method on `path` in a child process of its own (peak RSS per method): 'scanner', '1 thread' or 'JSON.parse'. */
export function measure(method: string, path: string): Measurement {
  const out = execFileSync(process.execPath, ['--max-old-space-size=20000', '--import', 'tsx', __filename, '--child', method, path], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as Measurement;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 1;
  const sizes = args.map(Number);
  for (const sizeMb of sizes.length ? sizes : [100, 500, 2048]) {
    const path = join(tmpdir(), `compile-lens-bench-${sizeMb}mb.trace.json`);
    try {
      generateTrace(path, sizeMb * 1024 * 1024);
      const fd = openSync(path, 'r+');
      fsyncSync(fd);
      closeSync(fd);
      const fileMb = statSync(path).size / 1024 / 1024;
      for (let round = 0; round < rounds; round++) for (const method of ['scanner', '1 thread', 'JSON.parse']) {
        const m = measure(method, path);
        const memory = `peak RSS ${m.peakRssMb.toFixed(0)} MB (${(m.peakRssMb / fileMb).toFixed(2)}× file)`;
        const firstView = m.firstViewSeconds === undefined ? '' : `${m.firstViewSeconds.toFixed(2)} s to the first view's preview, `;
        console.log(`${fileMb.toFixed(0)} MB  ${method.padEnd(10)} ${m.ok ? `${firstView}${m.seconds.toFixed(2)} s to model, ${m.events} events, ${memory}` : `FAILED after ${m.seconds.toFixed(2)} s: ${m.error}; ${memory}`}`);
      }
    } finally {
      rmSync(path, { force: true });
    }
  }
}

if (process.argv[2] === '--child') void child(process.argv[3], process.argv[4]);
else if (require.main === module) void main();
