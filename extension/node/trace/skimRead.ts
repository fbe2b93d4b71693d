// A big plain trace file opened for a timeline in two passes: a skim (skim.ts) gives the steps and where each
// event is, the events around the first view are parsed from those byte ranges for the first frame, and the
// whole file is read (scanner.ts) only when the full model is asked for, after it.
import { statSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { TraceScanner } from './byteScanner.ts';
import { windowModel } from './buildModel.ts';
import { withoutPhaseTwins } from './phaseTwins.ts';
import type { TraceModel } from '../../shared/trace/model.ts';
import { TraceError } from './problems.ts';
import type { TraceReader } from './traceReading.ts';
import type { PostedPiece } from './postedPieces.ts';
import { viewWindow, type FirstView } from '../../shared/trace/window.ts';
import { findSplit, isGzipFile, PARALLEL_MIN_BYTES, readRange, readTraceFile, startHalfWorker } from './scanner.ts';
import { TraceSkim } from './skim.ts';
import { windowRanges, type Skim, type SkimmedPart, type SkimPart } from './skimParts.ts';

/**
 * Plain files from this size are skimmed first. Below it the whole read is quick (~0.1 s per 20 MB) and the
 * preview threshold (node/timelineContent.ts PREVIEW_MIN_EVENTS, ~45 MB of kineto's JSON) is not reached.
 */
export const SKIM_MIN_BYTES = 32 * 1024 * 1024;

/**
 * A trace file for a timeline: a plain one from `skimFrom` bytes skimmed (the whole read waits for model()), any
 * other, or one the skim cannot read, read whole at once. Throws TraceError when the file cannot be read.
 * `parallelFrom`: see skimFile.
 */
export async function openTraceFile(
  path: string,
  skimFrom = SKIM_MIN_BYTES,
  parallelFrom = PARALLEL_MIN_BYTES,
): Promise<TraceReader> {
  let size = -1;
  try {
    size = statSync(path).size;
  } catch {
    /* readTraceFile reports it */
  }
  if (size < skimFrom || (await isGzipFile(path))) return readTraceFile(path);
  const skim = await skimFile(path, size, parallelFrom);
  return skim ? new SkimmedTrace(path, size, skim) : readTraceFile(path);
}

/**
 * The skim of a plain file of `size` bytes, or null where it is not shaped as the skim reads it. From
 * `parallelFrom` bytes (the scanner's threshold) in two halves at once, a worker thread taking the second; where
 * they cannot be joined (no split at an event's start), in one pass.
 */
export async function skimFile(path: string, size: number, parallelFrom = PARALLEL_MIN_BYTES): Promise<Skim | null> {
  if (size >= parallelFrom) {
    const found = await findSplit(path, size).catch(() => null);
    const joined = found && (await skimHalves(path, size, found.split, found.bareArray));
    if (joined) return joined;
  }
  const skim = new TraceSkim();
  await readRange(path, skim, 0, Infinity);
  return skim.end();
}

/** Bytes after a half's end that its skim reads: the next event's "ph" key, which ends the half's last event. */
const PAST_SPLIT_BYTES = 256;

/** This thread skims [0, split) while a worker skims [split, size); null where either gave up. */
async function skimHalves(path: string, size: number, split: number, bareArray: boolean): Promise<Skim | null> {
  let worker: Worker;
  try {
    worker = startHalfWorker({ skim: { path, part: { from: split, to: Infinity, bareArray } } } satisfies SkimJob);
  } catch {
    return null;
  }
  const second = new Promise<SkimmedPart | null>((resolve) => {
    worker.once('message', (message: { part?: SkimmedPart | null }) => resolve(message.part ?? null));
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
  });
  const first = new TraceSkim({ from: 0, to: split, bareArray });
  try {
    await readRange(path, first, 0, Math.min(size, split + PAST_SPLIT_BYTES));
  } catch {
    void worker.terminate();
    return null;
  }
  const part = await second;
  void worker.terminate();
  if (!part) return null;
  first.appendPart(part);
  return first.end();
}

/** What a worker skims: bytes [part.from, size) of `path`. */
export interface SkimJob {
  skim: { path: string; part: SkimPart };
}

/** The worker's side: skims its part and posts it back (null where it gave up or failed). */
export async function runSkimWorker(
  job: SkimJob,
  post: (message: { part: SkimmedPart | null }, transfer: ArrayBuffer[]) => void,
): Promise<void> {
  try {
    const skim = new TraceSkim(job.skim.part);
    await readRange(job.skim.path, skim, job.skim.part.from, Infinity);
    const part = skim.exportPart();
    const { rows, blocks } = part ?? { rows: null, blocks: null };
    const transfer =
      rows && blocks
        ? [
            rows.start,
            rows.dur,
            rows.kind,
            rows.name,
            rows.correlation,
            rows.track,
            blocks.start,
            blocks.minTs,
            blocks.maxEnd,
            blocks.metadata,
          ]
        : [];
    post(
      { part },
      transfer.map((a) => a.buffer as ArrayBuffer),
    );
  } catch {
    post({ part: null }, []);
  }
}

/** A skimmed file: its preview parsed from the byte ranges around the view, its model read whole once. */
class SkimmedTrace implements TraceReader {
  private whole: Promise<TraceReader> | null = null;
  /** dropped when the whole read starts: its blocks are ~25 bytes per 32 events */
  private skim: Skim | null;
  readonly events: number;

  constructor(
    private readonly path: string,
    private readonly size: number,
    skim: Skim,
  ) {
    this.skim = skim;
    this.events = skim.events;
  }

  async preview(view: FirstView | null): Promise<TraceModel | null> {
    if (!this.skim) return (await this.whole!).preview(view);
    const window = viewWindow(this.skim.steps, view);
    return window && (await windowOf(this.path, this.size, this.skim, window));
  }

  async model(): Promise<TraceModel> {
    return (await this.read()).model();
  }

  async *posted(rowsPerPart: number, deflate = false): AsyncGenerator<PostedPiece> {
    yield* (await this.read()).posted(rowsPerPart, deflate);
  }

  /** The whole file's reading, started once. */
  private read(): Promise<TraceReader> {
    this.skim = null;
    this.whole ??= readTraceFile(this.path);
    return this.whole;
  }
}

/**
 * The model of the slices overlapping `window` (µs since the origin), parsed from the blocks of the file that
 * may hold them; null where a block does not parse whole (the skim took something for an event's start).
 */
export async function windowOf(
  path: string,
  size: number,
  skim: Skim,
  window: [number, number],
): Promise<TraceModel | null> {
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
  // its compile phases folded on all the events read, the window's and those around it (the nearest to the whole
  // trace's fold this read has: an outer phase's alike child in a block not read is not seen)
  return raw && windowModel(withoutPhaseTwins(raw), skim, window);
}
