// Scanner vs JSON.parse on tiled real traces, each measured in its own child process (peak RSS per method).
// "scanner" is what the timeline does (two halves on two threads from 160 MB, the first view's preview cut from the
// raw columns, then the model built); "1 thread" is the one-pass read of the same file to its model.
//   node --import tsx bench/scan.ts [--rounds N] [SIZE_MB ...]   (default 1 round of 100 500 2048; files are generated
//   in /tmp, flushed to disk before timing (background writeback slowed whichever method ran first), and deleted).
// Each child runs what ships (bench/measure.ts).
import { closeSync, fsyncSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTrace } from './gen-trace.ts';
import { measure } from './measure.ts';

function main(): void {
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
      for (let round = 0; round < rounds; round++)
        for (const method of ['scanner', '1 thread', 'JSON.parse']) {
          const m = measure(method, path);
          const memory = `peak RSS ${m.peakRssMb.toFixed(0)} MB (${(m.peakRssMb / fileMb).toFixed(2)}× file)`;
          const firstView =
            m.firstViewSeconds === undefined ? '' : `${m.firstViewSeconds.toFixed(2)} s to the first view's preview, `;
          console.log(
            `${fileMb.toFixed(0)} MB  ${method.padEnd(10)} ${m.ok ? `${firstView}${m.seconds.toFixed(2)} s to model, ${m.events} events, ${memory}` : `FAILED after ${m.seconds.toFixed(2)} s: ${m.error}; ${memory}`}`,
          );
        }
    } finally {
      rmSync(path, { force: true });
    }
  }
}

main();
