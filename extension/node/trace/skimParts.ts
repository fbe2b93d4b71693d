// What a skim of a trace file gives (skim.ts makes it): the tracks, steps and time span of each block of bytes, a
// part of the file skimmed by one thread and sent back, and the byte ranges of the blocks a window needs.
import type { TraceModel } from '../../shared/trace/model.ts';
import type { RawTrack } from './rawTrace.ts';

/** What the skim found: enough to pick the first view's window and the byte ranges holding its events. */
export interface Skim {
  /** slices (complete events) in the file */
  events: number;
  /** the earliest slice start (absolute µs): the model's origin */
  origin: number;
  /** every track, in first-mention order, as the scanner makes them */
  tracks: RawTrack[];
  steps: TraceModel['steps'];
  stepSource: TraceModel['stepSource'];
  /** correlation ids of the cudaGraphLaunch calls */
  graphLaunches: Set<number>;
  /** the blocks: block b holds bytes [start[b], start[b + 1]) (the last one to the end of the file) */
  blocks: { count: number; start: Float64Array; minTs: Float64Array; maxEnd: Float64Array; metadata: Uint8Array };
  /** whether the document is a bare array of events (else an object with traceEvents) */
  bareArray: boolean;
}

/** Bytes [from, to) of a file, skimmed by one thread. */
export interface SkimPart {
  from: number;
  to: number;
  bareArray: boolean;
}

/** A part's skim, sent back by the thread that made it (structured-cloneable). */
export interface SkimmedPart {
  events: number;
  origin: number;
  tracks: RawTrack[];
  names: string[];
  graphLaunches: number[];
  rows: {
    count: number;
    start: Float64Array;
    dur: Float64Array;
    kind: Uint8Array;
    name: Uint32Array;
    correlation: Float64Array;
    track: Uint32Array;
  };
  blocks: Skim['blocks'];
}

/**
 * The byte ranges [from, to) of the blocks that may hold a slice or flow event of the window [from, to] (µs since
 * the origin), or metadata; adjacent ones joined. `end`: the file's size.
 */
export function windowRanges(skim: Skim, from: number, to: number, end: number): [number, number][] {
  const { count, start, minTs, maxEnd, metadata } = skim.blocks;
  const ranges: [number, number][] = [];
  // a margin of 1 µs: the parse after keeps exactly the slices overlapping the window, as the preview does
  const lo = from + skim.origin - 1;
  const hi = to + skim.origin + 1;
  for (let b = 0; b < count; b++) {
    if (!metadata[b] && !(minTs[b]! <= hi && maxEnd[b]! >= lo)) continue;
    const rangeEnd = b + 1 < count ? start[b + 1]! : end;
    const last = ranges.at(-1);
    if (last && last[1] === start[b]) last[1] = rangeEnd;
    else ranges.push([start[b]!, rangeEnd]);
  }
  return ranges;
}
