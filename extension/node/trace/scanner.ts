// Reading a torch.profiler Chrome trace file (plain or gzip) into raw columns (a TraceReading), and from them its model. Plain files
// from PARALLEL_MIN_BYTES are parsed in two halves on two threads (the second in scanWorker.ts) and merged. The
// bytes are parsed by byteScanner.ts and the model built by buildModel.ts.
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { TraceScanner, type HalfState } from '../../shared/trace/byteScanner.ts';
import { Ch } from '../../shared/trace/jsonCursor.ts';
import type { TraceModel } from '../../shared/trace/model.ts';
import { TraceError } from '../../shared/trace/problems.ts';
import { TraceReading } from '../../shared/trace/traceReading.ts';

const GZIP_MAGIC = [0x1f, 0x8b];

/** Reads a whole trace file; throws TraceError when nothing usable is in it. */
export async function scanTraceFile(path: string): Promise<TraceModel> {
  return (await readTraceFile(path)).model();
}

/** Reads a trace file into raw columns; throws TraceError when nothing usable is in it. */
export async function readTraceFile(path: string): Promise<TraceReading> {
  return new TraceReading((await readWhole(path)).end());
}

/** Whether a trace file is gzip (by its magic bytes); throws TraceError when it cannot be read. */
export async function isGzipFile(path: string): Promise<boolean> {
  try {
    const file = await open(path, 'r');
    try {
      const head = new Uint8Array(2);
      const { bytesRead } = await file.read(head, 0, 2, 0);
      return bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
    } finally {
      await file.close();
    }
  } catch (error) {
    throw new TraceError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Streams a trace file (plain or gzip) through a scanner, not yet ended. */
async function readWhole(path: string): Promise<TraceScanner> {
  if (!(await isGzipFile(path))) {
    let size = 0;
    try { size = statSync(path).size; } catch { /* readRange reports it */ }
    if (size >= PARALLEL_MIN_BYTES) return (await scanPlainParallel(path, size)).scanner;
    const scanner = new TraceScanner();
    await readRange(path, scanner, 0, Infinity);
    return scanner;
  }
  const scanner = new TraceScanner();
  const chunks: AsyncIterable<Uint8Array> = pipeline(createReadStream(path, { highWaterMark: CHUNK_BYTES }), createGunzip({ chunkSize: CHUNK_BYTES }), () => {});
  let decompressed = 0;
  try {
    for await (const chunk of chunks) {
      decompressed += chunk.length;
      scanner.push(chunk);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!code.startsWith('Z_')) throw new TraceError(`cannot read ${path}: ${(error as Error).message}`);
    const what = `corrupt gzip after ${decompressed} decompressed bytes: ${(error as Error).message}`;
    if (scanner.eventCount === 0) throw new TraceError(what, decompressed);
    scanner.warn(`${what} — showing the ${scanner.eventCount} events read before it`);
  }
  return scanner;
}

const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Plain files from this size are read in two halves at once (a worker thread takes the second half). Not
 * smaller ones: the worker's own V8 isolate and copied-back columns add ~25–35 MB of resident memory, which
 * took a 100 MB file to 1.25× its size (one thread: 1.0–1.08×); a 150 MB one peaks at ~0.98× (bench/scan.ts).
 */
export const PARALLEL_MIN_BYTES = 160 * 1024 * 1024;
/**
 * Where the second half starts, as a fraction of the file. The worker starts later (thread + module load) and
 * its state is copied back, but 0.55 measured slower than 0.5 in bench/scan.ts (500 MB: 2.91 vs 2.84 s).
 */
const SPLIT_AT = 0.5;
/** How far past SPLIT_AT a split point (the start of an event) is looked for. */
const SPLIT_SEARCH_BYTES = 4 * 1024 * 1024;

/**
 * Pushes bytes [from, to) of a plain file through the scanner (or skim.ts's skim), read into one reused buffer (no
 * garbage per chunk: fresh chunks made V8 run a full GC every few).
 */
export async function readRange(path: string, scanner: { pushReusable(chunk: Uint8Array): void }, from: number, to: number): Promise<void> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new TraceError(`cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const buffer = new Uint8Array(CHUNK_BYTES);
    for (let at = from; at < to;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, to - at), at));
      } catch (error) {
        throw new TraceError(`cannot read ${path}: ${(error as Error).message}`);
      }
      if (bytesRead === 0) break;
      at += bytesRead;
      scanner.pushReusable(buffer.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
}

/**
 * Where the second half of a plain trace may start: the first '{' after SPLIT_AT that follows a ',' (spaces
 * between), i.e. likely the start of an event in traceEvents. Only a guess: the first half's scanner
 * confirms it (it must end exactly between two entries of traceEvents). Also says whether the root is a bare array.
 */
export async function findSplit(path: string, size: number): Promise<{ split: number; bareArray: boolean } | null> {
  const file = await open(path, 'r');
  try {
    const head = new Uint8Array(64);
    const { bytesRead: headRead } = await file.read(head, 0, head.length, 0);
    let h = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    while (h < headRead && (head[h] === Ch.Space || head[h] === Ch.Lf || head[h] === Ch.Cr || head[h] === Ch.Tab)) h++;
    if (h >= headRead || (head[h] !== Ch.BraceOpen && head[h] !== Ch.BracketOpen)) return null;
    const bareArray = head[h] === Ch.BracketOpen;
    const middle = Math.floor(size * SPLIT_AT);
    const window = new Uint8Array(Math.min(SPLIT_SEARCH_BYTES, size - middle));
    const { bytesRead } = await file.read(window, 0, window.length, middle);
    let lastNonSpace = 0;
    for (let i = 0; i < bytesRead; i++) {
      const b = window[i];
      if (b === Ch.Space || b === Ch.Lf || b === Ch.Cr || b === Ch.Tab) continue;
      if (b === Ch.BraceOpen && lastNonSpace === Ch.Comma && i > 0) return { split: middle + i, bareArray };
      lastNonSpace = b;
    }
    return null;
  } finally {
    await file.close();
  }
}

/**
 * Reads a plain trace with both cores: this thread parses the first half while a worker parses the second
 * (from an event start near the middle), then the worker's columns, names, tracks and flows are merged in, for
 * the model to be built once. The model equals a one-pass read's (deepStrictEqual); where that cannot be
 * guaranteed (no split point, the first half does not end between events, errors, rare warnings) the file is
 * read in one pass instead. `parallel` says which happened.
 */
async function scanPlainParallel(path: string, size: number): Promise<{ scanner: TraceScanner; parallel: boolean }> {
  const onePass = async (): Promise<{ scanner: TraceScanner; parallel: boolean }> => {
    const scanner = new TraceScanner();
    await readRange(path, scanner, 0, Infinity);
    return { scanner, parallel: false };
  };
  let found: Awaited<ReturnType<typeof findSplit>>;
  try { found = await findSplit(path, size); } catch { found = null; }
  if (!found) return onePass();
  const { split, bareArray } = found;
  let worker: Worker;
  try {
    worker = startHalfWorker({ path, from: split, to: size, bareArray });
  } catch {
    return onePass();
  }
  const second = new Promise<HalfState | null>((resolve) => {
    worker.once('message', (message: { state?: HalfState }) => resolve(message.state ?? null));
    worker.once('error', () => resolve(null));
    worker.once('exit', () => resolve(null));
  });
  const first = new TraceScanner();
  let firstOk: boolean;
  try {
    await readRange(path, first, 0, split);
    firstOk = first.endsBetweenEvents();
  } catch {
    firstOk = false;
  }
  if (!firstOk) { void worker.terminate(); return onePass(); }
  const state = await second;
  void worker.terminate();
  if (!state || !first.mergeHalf(state)) return onePass();
  return { scanner: first, parallel: true };
}

export interface HalfJob { path: string; from: number; to: number; bareArray: boolean }

/**
 * The second half (of a scan, or of skimRead.ts's skim) runs in scanWorker: bundled as dist/scanWorker.js beside
 * dist/cli.js and dist/extension.js, or scanWorker.ts next to this file when run from sources (tests, benches;
 * tsx's --import hooks do not reach a worker on Node 20, so its CommonJS hook is registered there).
 */
export function startHalfWorker(job: object): Worker {
  const fromSources = /\.[cm]?ts$/.test(__filename);
  const entry = join(__dirname, fromSources ? 'scanWorker.ts' : 'scanWorker.js');
  if (!fromSources) return new Worker(entry, { workerData: job });
  const tsx = createRequire(__filename).resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)});`, { eval: true, workerData: job });
}

/** The worker's side: scan [from, to) as the second half and post the raw state back (errors: no state). */
export async function runHalfWorker(job: HalfJob, post: (message: { state?: HalfState }, transfer?: ArrayBuffer[]) => void): Promise<void> {
  try {
    const scanner = new TraceScanner();
    scanner.startInsideEvents(job.from, job.bareArray);
    await readRange(job.path, scanner, job.from, job.to);
    const state = scanner.finishHalf();
    const { flows } = state;
    const transfer = [state.start, state.dur, state.track, state.name, state.kind, state.correlation, state.argSlice, state.argValues,
      flows.id, flows.textId, flows.isEnd, flows.track, flows.ts, flows.byte].map((a) => a.buffer as ArrayBuffer);
    post({ state }, transfer);
  } catch {
    post({});
  }
}

/** @internal For tests and benches: the one-pass and the two-half read of a plain file, whatever its size. */
export const traceScanInternals = {
  async scanOnePass(path: string): Promise<TraceModel> {
    const scanner = new TraceScanner();
    await readRange(path, scanner, 0, Infinity);
    return scanner.finish();
  },
  async scanParallel(path: string): Promise<{ model: TraceModel; parallel: boolean }> {
    const { scanner, parallel } = await scanPlainParallel(path, statSync(path).size);
    return { model: scanner.finish(), parallel };
  },
  PARALLEL_MIN_BYTES,
};

