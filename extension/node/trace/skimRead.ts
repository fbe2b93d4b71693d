// A big plain trace file opened for a timeline in two passes: a skim (skim.ts) gives the steps and where each
// event is, the events around the first view are parsed from those byte ranges for the first frame, and the
// whole file is read (scanner.ts) only when the full model is asked for, after it.
import { statSync } from 'node:fs';
import { TraceScanner } from '../../shared/trace/byteScanner.ts';
import { windowModel } from '../../shared/trace/buildModel.ts';
import type { TraceModel } from '../../shared/trace/model.ts';
import { TraceError } from '../../shared/trace/problems.ts';
import type { TraceReader, TraceReading } from '../../shared/trace/traceReading.ts';
import { viewWindow, type FirstView } from '../../shared/trace/window.ts';
import { isGzipFile, readRange, readTraceFile } from './scanner.ts';
import { TraceSkim, windowRanges, type Skim } from './skim.ts';

/**
 * Plain files from this size are skimmed first. Below it the whole read is quick (~0.1 s per 20 MB) and the
 * preview threshold (present/timelineContent.ts PREVIEW_MIN_EVENTS, ~45 MB of kineto's JSON) is not reached.
 */
export const SKIM_MIN_BYTES = 32 * 1024 * 1024;

/**
 * A trace file for a timeline: a plain one from `skimFrom` bytes skimmed (the whole read waits for model()), any
 * other, or one the skim cannot read, read whole at once. Throws TraceError when the file cannot be read.
 */
export async function openTraceFile(path: string, skimFrom = SKIM_MIN_BYTES): Promise<TraceReader> {
  let size = -1;
  try { size = statSync(path).size; } catch { /* readTraceFile reports it */ }
  if (size < skimFrom || await isGzipFile(path)) return readTraceFile(path);
  const skim = await skimFile(path);
  return skim ? new SkimmedTrace(path, size, skim) : readTraceFile(path);
}

/** The skim of a plain file, or null where it is not shaped as the skim reads it. */
export async function skimFile(path: string): Promise<Skim | null> {
  const skim = new TraceSkim();
  await readRange(path, skim, 0, Infinity);
  return skim.end();
}

/** A skimmed file: its preview parsed from the byte ranges around the view, its model read whole once. */
class SkimmedTrace implements TraceReader {
  private whole: Promise<TraceReading> | null = null;

  constructor(private readonly path: string, private readonly size: number, private readonly skim: Skim) {}

  get events(): number {
    return this.skim.events;
  }

  async preview(view: FirstView | null): Promise<TraceModel | null> {
    if (this.whole) return (await this.whole).preview(view);
    const window = viewWindow(this.skim.steps, view);
    return window && await windowOf(this.path, this.size, this.skim, window);
  }

  async model(): Promise<TraceModel> {
    this.whole ??= readTraceFile(this.path);
    return (await this.whole).model();
  }
}

/**
 * The model of the slices overlapping `window` (µs since the origin), parsed from the blocks of the file that
 * may hold them; null where a block does not parse whole (the skim took something for an event's start).
 */
export async function windowOf(path: string, size: number, skim: Skim, window: [number, number]): Promise<TraceModel | null> {
  const scanner = new TraceScanner(skim.tracks);
  try {
    for (const [from, to] of windowRanges(skim, window[0], window[1], size)) {
      if (from > 0 && !scanner.startInsideEvents(from, skim.bareArray)) return null;
      await readRange(path, scanner, from, to);
    }
  } catch (error) {
    if (error instanceof TraceError) return null; // the whole read reports it
    throw error;
  }
  const raw = scanner.rangesRead();
  return raw && windowModel(raw, skim, window);
}
