// Reading a torch.profiler Chrome trace file (plain or gzip) into raw columns and from them its model. Plain files
// from PARALLEL_MIN_BYTES are parsed in two halves on two threads: a worker (scanWorker.ts) reads the first half,
// this thread the second, and the worker merges them and builds the model there, so this thread (an extension
// host's, which every extension shares) is not blocked for the seconds a big build takes. The bytes are parsed by
// byteScanner.ts and the model built by buildModel.ts.
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { TraceScanner, type HalfState } from './byteScanner.ts';
import { Ch } from './jsonCursor.ts';
import type { TraceModel } from '../../shared/trace/model.ts';
import { TraceError } from './problems.ts';
import { previewOfModel, TraceReading, type TraceReader } from './traceReading.ts';
import { partsOf, postedPieces, type PostedPiece } from './postedPieces.ts';
import type { FirstView } from '../../shared/trace/window.ts';
import { deflatePiece } from './deflatedPieces.ts';

const GZIP_MAGIC = [0x1f, 0x8b];

/** Reads a whole trace file; throws TraceError when nothing usable is in it. `parallelFrom`: see readTraceFile. */
export async function scanTraceFile(path: string, parallelFrom = PARALLEL_MIN_BYTES): Promise<TraceModel> {
  return (await readTraceFile(path, parallelFrom)).model();
}

/**
 * Reads a trace file for its preview and model; throws TraceError when nothing usable is in it. A plain file from
 * `parallelFrom` bytes is read in two halves at once (tests pass a lower threshold than the product's to take that
 * path on a small file).
 */
export async function readTraceFile(path: string, parallelFrom = PARALLEL_MIN_BYTES): Promise<TraceReader> {
  if (!(await isGzipFile(path))) {
    let size = 0;
    try {
      size = statSync(path).size;
    } catch {
      /* readRange reports it */
    }
    const parallel = size >= parallelFrom ? await readPlainParallel(path, size) : null;
    return parallel ?? readOnePass(path);
  }
  return new TraceReading((await readGzip(path)).end());
}

async function readOnePass(path: string): Promise<TraceReading> {
  const scanner = new TraceScanner();
  await readRange(path, scanner, 0, Infinity);
  return new TraceReading(scanner.end());
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

/** Streams a gzip trace file through a scanner, not yet ended. */
async function readGzip(path: string): Promise<TraceScanner> {
  const scanner = new TraceScanner();
  const chunks: AsyncIterable<Uint8Array> = pipeline(
    createReadStream(path, { highWaterMark: CHUNK_BYTES }),
    createGunzip({ chunkSize: CHUNK_BYTES }),
    () => {},
  );
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
 * Plain files from this size are read in two halves at once (a worker thread takes the first half). Not
 * smaller ones: the worker's own V8 isolate and a half's copied columns add ~25–35 MB of resident memory, which
 * took a 100 MB file to 1.25× its size (one thread: 1.0–1.08×); a 150 MB one peaks at ~0.98× (bench/scan.ts, when
 * the worker took the second half).
 */
export const PARALLEL_MIN_BYTES = 160 * 1024 * 1024;
/**
 * Where the second half starts, as a fraction of the file. The worker starts later (thread + module load), but
 * giving it less (0.55 when it took the second half) measured slower than 0.5 in bench/scan.ts (500 MB: 2.91 vs
 * 2.84 s), and 0.45 or 0.42 no different (docs/BENCHMARKS.md).
 */
const SPLIT_AT = 0.5;
/** How far past SPLIT_AT a split point (the start of an event) is looked for. */
const SPLIT_SEARCH_BYTES = 4 * 1024 * 1024;

/**
 * Pushes bytes [from, to) of a plain file through the scanner (or skim.ts's skim), read into one reused buffer (no
 * garbage per chunk: fresh chunks made V8 run a full GC every few).
 */
export async function readRange(
  path: string,
  scanner: { pushReusable(chunk: Uint8Array): void },
  from: number,
  to: number,
): Promise<void> {
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
      const b = window[i]!;
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
 * Reads a plain trace with both cores: a worker parses the first half while this thread parses the second (from
 * an event start near the middle) and hands it over; the worker merges it in as one read would have read it, and
 * answers the preview and the model (built there) from the merged columns. The model equals a one-pass read's
 * (deepStrictEqual); where that cannot be guaranteed (no split point, the first half does not end between events,
 * errors, rare warnings) null: the caller reads the file in one pass.
 */
async function readPlainParallel(path: string, size: number): Promise<TraceReader | null> {
  let found: Awaited<ReturnType<typeof findSplit>>;
  try {
    found = await findSplit(path, size);
  } catch {
    found = null;
  }
  if (!found) return null;
  const { split, bareArray } = found;
  let worker: Worker;
  try {
    worker = startHalfWorker({ firstHalf: { path, split } } satisfies FirstHalfJob);
  } catch {
    return null;
  }
  const replies = new WorkerReplies(worker);
  let second: HalfState | null;
  try {
    const scanner = new TraceScanner();
    scanner.startInsideEvents(split, bareArray);
    await readRange(path, scanner, split, size);
    second = scanner.finishHalf();
  } catch {
    second = null;
  }
  worker.postMessage({ half: second } satisfies ToFirstHalf, second ? halfBuffers(second) : []);
  let joined: FromFirstHalf;
  try {
    joined = await replies.next();
  } catch {
    joined = { joined: false }; // the worker failed: read in one pass
  }
  if (!('events' in joined)) void worker.terminate();
  if ('error' in joined) throw new TraceError(joined.error.message, joined.error.byte);
  return 'events' in joined ? new WorkerReading(worker, replies, joined.events) : null;
}

/**
 * What the first half's worker is asked, in turn: the second half (null: it could not be read), then previews, the
 * model as posted (in parts of `posted` rows), and the model (its last request).
 */
type ToFirstHalf =
  { half: HalfState | null } | { preview: FirstView | null } | { posted: number; deflate: boolean } | { model: true };
/** Its answers: whether the halves joined (and the slice count), a TraceError's, a preview, the pieces of the model as posted, the model. */
type FromFirstHalf =
  | { joined: false }
  | { events: number }
  | { error: { message: string; byte?: number | undefined } }
  | { preview: TraceModel | null }
  | PostedPiece
  | { model: TraceModel };

/** The worker's messages, in order; a worker that fails or exits before answering rejects with TraceError. */
class WorkerReplies {
  private readonly queued: FromFirstHalf[] = [];
  private waiting: { resolve: (reply: FromFirstHalf) => void; reject: (error: Error) => void } | null = null;
  private ended: TraceError | null = null;

  constructor(worker: Worker) {
    worker.on('message', (reply: FromFirstHalf) => {
      if (this.waiting) {
        this.waiting.resolve(reply);
        this.waiting = null;
      } else this.queued.push(reply);
    });
    const end = (why: string): void => {
      this.ended ??= new TraceError(`the thread reading the trace stopped: ${why}`);
      this.waiting?.reject(this.ended);
      this.waiting = null;
    };
    worker.on('error', (error) => end(error.message));
    worker.on('exit', (code) => end(`exit code ${code}`));
  }

  next(): Promise<FromFirstHalf> {
    const reply = this.queued.shift();
    if (reply) return Promise.resolve(reply);
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }
}

/** Stops a worker whose reading was dropped before its model was asked for (the worker holds the raw columns). */
const dropped = new FinalizationRegistry<Worker>((worker) => {
  void worker.terminate();
});

/**
 * A trace read by a worker (readPlainParallel): its previews and model come from there, one request at a time. The
 * worker keeps the model once built for the pieces posted (so a webview shown again gets them without a second
 * read) until the model itself is asked for: then it is moved here and the worker stops.
 */
class WorkerReading implements TraceReader {
  private turn: Promise<unknown> = Promise.resolve();
  private built: Promise<TraceModel> | null = null;

  constructor(
    private readonly worker: Worker,
    private readonly replies: WorkerReplies,
    readonly events: number,
  ) {
    worker.unref();
    dropped.register(this, worker, this);
  }

  async preview(view: FirstView | null): Promise<TraceModel | null> {
    if (this.built) return previewOfModel(await this.built, view); // the worker is gone
    return this.ask({ preview: view }, (reply) => ('preview' in reply ? reply.preview : undefined));
  }

  model(): Promise<TraceModel> {
    this.built ??= this.ask({ model: true }, (reply) => ('model' in reply ? reply.model : undefined)).finally(() => {
      dropped.unregister(this);
      void this.worker.terminate();
    });
    return this.built;
  }

  /** Built and packed in the worker, each part sent here as soon as it is made. */
  async *posted(rowsPerPart: number, deflate = false): AsyncGenerator<PostedPiece> {
    if (this.built) {
      const model = await this.built;
      yield* postedPieces(partsOf(model, rowsPerPart), model.count);
      return;
    }
    yield* this.exchange(
      { posted: rowsPerPart, deflate },
      (reply) => ('from' in reply ? reply : undefined),
      (piece) => 'trace' in piece,
    );
  }

  /** `request`'s one answer (see exchange). */
  private async ask<T>(request: ToFirstHalf, pick: (reply: FromFirstHalf) => T | undefined): Promise<T> {
    for await (const answer of this.exchange(request, pick, () => true)) return answer;
    throw new TraceError('the thread reading the trace did not answer');
  }

  /**
   * Sends `request` once the requests before it are answered; yields its answers, as `pick` takes them from the
   * replies, up to the one `isLast` says ends them. Answers left when the caller stops early are taken all the
   * same, so the next request's come in turn.
   */
  private async *exchange<T>(
    request: ToFirstHalf,
    pick: (reply: FromFirstHalf) => T | undefined,
    isLast: (answer: T) => boolean,
  ): AsyncGenerator<T> {
    const before = this.turn;
    let done = (): void => {};
    this.turn = new Promise<void>((resolve) => {
      done = resolve;
    });
    await before;
    this.worker.ref(); // kept alive while its answers are awaited, not while it waits for a request
    let last = false;
    const next = async (): Promise<T> => {
      const answer = pick(await this.replies.next());
      if (answer === undefined) throw new TraceError('the thread reading the trace answered out of turn');
      last = isLast(answer);
      return answer;
    };
    try {
      this.worker.postMessage(request);
      while (!last) yield await next();
    } finally {
      try {
        while (!last) await next();
      } catch {
        /* the worker stopped: nothing more comes */
      }
      this.worker.unref();
      done();
    }
  }
}

/**
 * The first half of a read, or the second of skimRead.ts's skim, runs in scanWorker: bundled as dist/scanWorker.js beside
 * dist/cli.js and dist/extension.js, or scanWorker.ts next to this file when run from sources (tests, benches;
 * tsx's --import hooks do not reach a worker on Node 20, so its CommonJS hook is registered there).
 */
export function startHalfWorker(job: object): Worker {
  const fromSources = /\.[cm]?ts$/.test(__filename);
  const entry = join(__dirname, fromSources ? 'scanWorker.ts' : 'scanWorker.js');
  if (!fromSources) return new Worker(entry, { workerData: job });
  const tsx = createRequire(__filename).resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)});`, {
    eval: true,
    workerData: job,
  });
}

/** The first half's worker's job: bytes [0, split) of `path`. */
export interface FirstHalfJob {
  firstHalf: { path: string; split: number };
}

/** How a worker talks to the thread that started it. */
export interface WorkerPort {
  post(message: unknown, transfer?: ArrayBuffer[]): void;
  receive(): Promise<unknown>;
}

/**
 * The worker's side of readPlainParallel: reads the first half, takes the second half's state, merges it in, then
 * answers requests for previews and the model as posted (each piece as soon as it is made) until the model is
 * asked for, built and sent (its columns moved, not copied).
 */
export async function runFirstHalfWorker(job: FirstHalfJob, port: WorkerPort): Promise<void> {
  const scanner = new TraceScanner();
  let endsBetween = false;
  try {
    await readRange(job.firstHalf.path, scanner, 0, job.firstHalf.split);
    endsBetween = scanner.endsBetweenEvents();
  } catch {
    endsBetween = false;
  }
  if (!(await mergeSecondHalf(scanner, endsBetween, port))) {
    port.post({ joined: false } satisfies FromFirstHalf);
    return;
  }
  let reading: TraceReading;
  try {
    reading = new TraceReading(scanner.end(), true); // built in parts: this worker answers one request at a time
  } catch (error) {
    if (!(error instanceof TraceError)) throw error;
    port.post({ error: { message: error.message, byte: error.byte } } satisfies FromFirstHalf);
    return;
  }
  port.post({ events: reading.events } satisfies FromFirstHalf);
  for (;;) {
    const request = (await port.receive()) as ToFirstHalf;
    if ('preview' in request) {
      port.post({ preview: reading.preview(request.preview) } satisfies FromFirstHalf); // small: copied
    } else if ('posted' in request) {
      for (const piece of reading.posted(request.posted)) {
        port.post((request.deflate ? deflatePiece(piece) : piece) satisfies FromFirstHalf); // copied
      }
    } else {
      const model = reading.model();
      port.post({ model } satisfies FromFirstHalf, modelBuffers(model));
      return;
    }
  }
}

/**
 * Takes the second half's state and merges it into the first (`endsBetween`: the first half's read ended between
 * two events); false where they cannot be joined. Its own function, so the state is not held after.
 */
async function mergeSecondHalf(scanner: TraceScanner, endsBetween: boolean, port: WorkerPort): Promise<boolean> {
  const { half } = (await port.receive()) as Extract<ToFirstHalf, { half: unknown }>;
  return endsBetween && half !== null && scanner.mergeHalf(half);
}

/** The buffers of a half's columns, moved to the worker with it. */
function halfBuffers(state: HalfState): ArrayBuffer[] {
  const { flows } = state;
  return distinctBuffers([
    state.start,
    state.dur,
    state.track,
    state.name,
    state.kind,
    state.correlation,
    state.argSlice,
    state.argValues,
    flows.id,
    flows.textId,
    flows.isEnd,
    flows.track,
    flows.ts,
    flows.byte,
  ]);
}

/** The buffers of a model's columns and kernel args, moved back from the worker with it. */
function modelBuffers(model: TraceModel): ArrayBuffer[] {
  return distinctBuffers([
    model.start,
    model.dur,
    model.track,
    model.name,
    model.kind,
    model.depth,
    model.correlation,
    model.kernelArgs.slice,
    model.kernelArgs.values,
  ]);
}

/** Each array's buffer once (a transfer list naming one twice is refused). */
function distinctBuffers(arrays: ArrayBufferView[]): ArrayBuffer[] {
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/** @internal For tests and benches: the one-pass and the two-half read of a plain file, whatever its size. */
export const traceScanInternals = {
  async scanOnePass(path: string): Promise<TraceModel> {
    return (await readOnePass(path)).model();
  },
  async scanParallel(path: string): Promise<{ model: TraceModel; parallel: boolean }> {
    const parallel = await this.readInHalves(path);
    return parallel
      ? { model: await parallel.model(), parallel: true }
      : { model: await this.scanOnePass(path), parallel: false };
  },
  /** The two-half reading (null: the file is read in one pass). */
  readInHalves(path: string): Promise<TraceReader | null> {
    return readPlainParallel(path, statSync(path).size);
  },
  PARALLEL_MIN_BYTES,
};
