// A trace's facts (shared/trace/summary.ts) as `compile-lens summarize` prints them.
import { type TraceSummary } from '../shared/trace/summary.ts';
import { traceNameWords } from '../shared/trace/traceWords.ts';
import { formatUs } from './numbers.ts';
import { kernelCountNames } from './workCounts.ts';

const perStepText = (value: number | null, unit = ''): string =>
  value === null ? 'n/a (no steps found)' : `${Number.isInteger(value) ? value : value.toFixed(1)}${unit}`;

/** `compile-lens summarize`'s text: its times as every surface says a time (formatUs); a CPU-only trace's counted work
 *  in the words the panel's compare counts it, its CPU ops (review 18Y Y1: "kernels / step" of a CPU trace). */
export function formatTraceSummary(s: TraceSummary): string {
  const gpu = s.gpuStreams > 0;
  const names = kernelCountNames(gpu ? 'GPU' : 'CPU');
  // "kernel", "CPU op": one of them
  const one = names.all.replace(/s$/, '');
  const stepNote =
    s.stepSource === 'repetition'
      ? ` (found as repetitions of the ${one} sequence)`
      : s.stepSource === 'none'
        ? ` (no ProfilerStep spans and no repeating ${one} sequence)`
        : '';
  const families = gpu
    ? `generated ${s.kernelsByFamily.generated}, library ${s.kernelsByFamily.library}, ATen ${s.kernelsByFamily.aten}, memcpy/memset ${s.kernelsByFamily.memory}, CUDA-graph replay ${s.kernelsByFamily['graph-replay']}`
    : `${names.generated} ${s.kernelsByFamily.generated}, ${names.library} ${s.kernelsByFamily.library}, ${names.aten} ${s.kernelsByFamily.aten}`;
  const label = (text: string, width = 18): string => text.padEnd(width);
  const busy = gpu ? 'GPU' : names.all;
  const lines = [
    `events            ${s.events} on ${s.cpuThreads} CPU thread(s) and ${s.gpuStreams} GPU stream(s), spanning ${formatUs(s.spanUs)}`,
    `profiled steps    ${s.steps}${stepNote}`,
    `${label(names.all)}${s.kernels} (${families})`,
    `${label(`${names.all} / step`)}${perStepText(s.kernelsPerStep)}${gpu ? `   (all GPU events / step: ${perStepText(s.gpuEventsPerStep)})` : ''}`,
    `launches / step   ${perStepText(s.launchesPerStep)}`,
    `${label(`${busy} busy`, 17)}${formatUs(s.gpuBusyUs)}${s.gpuBusyPerStepUs === null ? '' : ` (${formatUs(s.gpuBusyPerStepUs)} / step)`}`,
    `${label(`${busy} idle`, 17)}${formatUs(s.gpuIdleUs)}${s.gpuIdlePerStepUs === null ? '' : ` (${formatUs(s.gpuIdlePerStepUs)} / step)`} between the first and last ${one}`,
  ];
  if (s.compileSpans.length > 0) {
    lines.push(
      `compile in region ${formatUs(s.compileUs)} in ${s.compileSpans.length} span(s): ${s.compileSpans.map((c) => `${c.name} ${formatUs(c.durUs)}`).join(', ')}`,
    );
  }
  if (s.topKernels.length > 0) {
    lines.push(`top ${names.all} by total time:`);
    for (const k of s.topKernels) {
      // a library's kernel said as the timeline says it (traceWords.ts), its mangled name after
      const words = traceNameWords(k.name);
      lines.push(
        `  ${formatUs(k.totalUs).padStart(10)}  ×${String(k.count).padEnd(5)} ${k.family.padEnd(12)} ${words ? `${words}: ${k.name}` : k.name}`,
      );
    }
  }
  for (const warning of s.warnings) lines.push(`warning: ${warning}`);
  return lines.join('\n');
}
