// A trace's steps on their way to the webview: two number columns (posted as binary) and their labels only where
// they are not the `call N` of steps found by repetition. As objects, the 10 000 steps of a 500 MB trace's preview
// cost its first frame ~80 ms between the host and the webview, the 41 000 of a 2 GB one ~0.3 s (docs/BENCHMARKS.md).
import type { TraceModel } from './model.ts';

type Steps = TraceModel['steps'];

/** Steps as posted: start and end columns, and their labels (null: step k is `call k`, numbered from 0). */
export interface PackedSteps {
  start: Float64Array;
  end: Float64Array;
  labels: string[] | null;
}

export function packSteps(steps: Steps): PackedSteps {
  const numbered = steps.every((step, k) => step.label === `call ${k}`);
  return {
    start: Float64Array.from(steps, (step) => step.start),
    end: Float64Array.from(steps, (step) => step.end),
    labels: numbered ? null : steps.map((step) => step.label),
  };
}

/**
 * Steps as objects again: `sent` packed (its columns through `column`, which restores what postMessage made of a
 * typed array), or already objects (a message posted without packing: the webview tests').
 */
export function unpackSteps(sent: Steps | PackedSteps, column: (value: unknown) => Float64Array): Steps {
  if (Array.isArray(sent)) return sent;
  const start = column(sent.start);
  const end = column(sent.end);
  return Array.from(start, (at, k) => ({
    start: at,
    end: end[k]!,
    label: sent.labels?.[k] ?? `call ${k}`,
  }));
}
