// What the timeline's depth costs on a big trace: the marks lane (found after the first frame, in the same
// thread: the next frames wait for it), a range's table (one step, the whole trace), and a selection's arrows
// (a launch, a CPU op).
//   node --import tsx bench/timelineDepth.ts SIZE_MB [FIXTURE]   (tiles FIXTURE, default mlp-reduce-overhead)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flowLinks } from '../extension/shared/trace/flowLinks.ts';
import type { TraceModel } from '../extension/shared/trace/model.ts';
import { summarizeRange } from '../webview/analysis/rangeSummary.ts';
import { timelineMarks } from '../extension/shared/trace/timelineMarks.ts';
import { scanTraceFile } from '../extension/node/trace/scanner.ts';
import { generateTrace } from './gen-trace.ts';

const time = <T>(what: string, run: () => T): T => {
  const began = performance.now();
  const out = run();
  console.log(`${what.padEnd(44)} ${(performance.now() - began).toFixed(1).padStart(8)} ms`);
  return out;
};

const named = (model: TraceModel, name: string): number => {
  const id = model.names.indexOf(name);
  for (let i = 0; i < model.count; i++) if (model.name[i] === id) return i;
  return -1;
};

async function main(): Promise<void> {
  const sizeMb = Number(process.argv[2] ?? 200);
  const fixture =
    process.argv[3] ?? join(__dirname, '..', 'test', 'fixtures', 'traces', 'mlp-reduce-overhead.trace.json');
  const folder = mkdtempSync(join(tmpdir(), 'cl-depth-'));
  try {
    const path = join(folder, 'big.trace.json');
    const { bytes, tiles } = generateTrace(path, sizeMb * 1e6, fixture);
    const model = await scanTraceFile(path);
    console.log(
      `${(bytes / 1e6).toFixed(0)} MB, ${tiles} tiles of ${fixture.split('/').pop()}, ${model.count.toLocaleString('en-US')} slices, ${model.steps.length} steps`,
    );
    const marks = time('marks (found after the first frame)', () => timelineMarks(model));
    console.log(`  ${marks.length} marks: ${[...new Set(marks.map((m) => m.kind))].join(', ')}`);
    const step = model.steps[Math.floor(model.steps.length / 2)] ?? { start: 0, end: 1 };
    time('range: first (kernel flags, levels)', () => summarizeRange(model, step.start, step.end));
    time('range: one step', () => summarizeRange(model, step.start, step.end));
    time('range: the whole trace', () => summarizeRange(model, -Infinity, Infinity));
    const launch =
      named(model, 'cudaGraphLaunch') >= 0 ? named(model, 'cudaGraphLaunch') : named(model, 'cudaLaunchKernel');
    if (launch >= 0) time('arrows: a launch', () => flowLinks(model, launch));
    const op = named(model, 'aten::addmm');
    if (op >= 0) time('arrows: a CPU op', () => flowLinks(model, op));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

void main();
