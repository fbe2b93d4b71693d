// Byte-level scanner for torch.profiler Chrome traces. It never builds one string of the file (V8 caps a
// string near 512 MB): chunks are parsed in place, one event at a time, straight into growable typed columns.
// An event cut by a chunk boundary is retried once more bytes arrive (retries only when the carried bytes
// have doubled, so a giant event still costs linear time).
// Layers: jsonCursor.ts lexes JSON in the chunks, eventParser.ts reads one event's fields, and this scanner walks
// the document and records what each event is into a RawTrace (rawTrace.ts), which buildModel.ts builds.
import { buildModel } from './buildModel.ts';
import { withoutPhaseTwins } from './phaseTwins.ts';
import { TraceEventParser } from './eventParser.ts';
import { bytesEqual, Ch, describeByte, NEED_MORE, PROBLEM_ESCAPE, PROBLEM_UTF8, SyntaxProblem } from './jsonCursor.ts';
import { wholeNs, type SliceKind, type TraceModel } from '../../shared/trace/model.ts';
import { ProblemLog, TraceError } from './problems.ts';
import { RawNameTable } from './rawNames.ts';
import { PROBLEM_DUPLICATE_FLOW, RawTrace, type RawHalf, type RawTrack } from './rawTrace.ts';
import { Cat, classifyDeviceName, classifyHostName, isDeviceCat } from '../../shared/trace/sliceKinds.ts';

const enum Phase {
  Start,
  RootObject,
  Events,
  Done,
}

const TRACE_EVENTS_KEY = new TextEncoder().encode('traceEvents');
/** Timestamps beyond this (µs) are treated as garbage: 10^17 µs is ~3000 years after the epoch. */
const MAX_ABS_TS_US = 1e17;

const PH_COMPLETE = 'X'.charCodeAt(0);
const PH_METADATA = 'M'.charCodeAt(0);
const PH_FLOW_START = 's'.charCodeAt(0);
const PH_FLOW_END = 'f'.charCodeAt(0);
const PH_INSTANT = 'i'.charCodeAt(0);
const PH_INSTANT_OLD = 'I'.charCodeAt(0);

/** What the scanner of the second half of a file hands back: its raw trace and where its document ended. */
export interface HalfState extends RawHalf {
  phase: Phase;
  stopped: { what: string; byte: number } | null;
  trailingDataByte: number;
  endByte: number;
}

/**
 * Incremental scanner: push() byte chunks in order, then finish() for the model (or end() for the raw trace).
 * Holds only the raw columns, the interned names and the bytes of at most one unfinished event.
 */
export class TraceScanner extends TraceEventParser {
  /** after a NEED_MORE, don't retry until buf holds this many bytes (keeps giant events linear) */
  private retryAt = 0;
  private phase = Phase.Start;
  private bareArray = false;
  private stopped: SyntaxProblem | null = null;
  private trailingDataByte = -1;
  private sawTraceEvents = false;

  /** what the events read so far hold; handed over by end() */
  private readonly raw = new RawTrace(this.problems);
  private readonly rawNames = new RawNameTable();
  /** SliceKind per name id for device and host events (-1 = not classified yet) */
  private deviceKindOfName = new Int8Array(256).fill(-1);
  private hostKindOfName = new Int8Array(256).fill(-1);

  /** `tracks`: tracks known before the read (a skim's), kept in this order, each event's found among them. */
  constructor(tracks: readonly RawTrack[] = []) {
    super(new ProblemLog());
    for (const track of tracks) this.raw.addTrack({ ...track });
  }

  /** Feeds the next chunk of the document. */
  push(chunk: Uint8Array): void {
    if (this.stopped || chunk.length === 0) return;
    this.append(chunk);
    if (this.buf.length < this.retryAt) return;
    this.run(false);
  }

  /**
   * Like push(), for a chunk whose memory the caller reuses for the next chunk (a file read into one buffer):
   * bytes still unread afterwards are copied out. Saves allocating a fresh chunk per read.
   */
  pushReusable(chunk: Uint8Array): void {
    this.push(chunk);
    this.detachFrom(chunk);
  }

  /** Slices read so far. */
  get eventCount(): number {
    return this.raw.count;
  }

  /** Adds a problem found outside the JSON (e.g. by the decompressor). */
  warn(message: string): void {
    this.raw.notes.push(message);
  }

  /** Ends the document and builds the model; throws TraceError when nothing usable was read. */
  finish(): TraceModel {
    return buildModel(withoutPhaseTwins(this.end()));
  }

  /** Ends the document; returns what it holds for buildModel(), or throws TraceError when nothing usable was read. */
  end(): RawTrace {
    if (!this.stopped) this.run(true);
    this.reportEnd();
    return this.raw;
  }

  private run(atEnd: boolean): void {
    for (;;) {
      const unitStart = this.pos;
      try {
        if (!this.step()) return;
        this.retryAt = 0;
      } catch (thrown) {
        this.pos = unitStart;
        if (thrown === NEED_MORE) {
          if (atEnd) this.stopAt(new SyntaxProblem('truncated JSON', this.bufOrigin + this.buf.length));
          else this.retryAt = Math.max(this.retryAt, (this.buf.length - unitStart) * 2);
          return;
        }
        if (thrown instanceof SyntaxProblem) {
          this.stopAt(thrown);
          return;
        }
        throw thrown;
      }
    }
  }

  private stopAt(problem: SyntaxProblem): void {
    this.stopped = problem;
    this.buf = new Uint8Array(0);
    this.pos = 0;
  }

  /** Parses one unit (a root token, a root key/value, or one event). Returns false when the buffer is spent. */
  private step(): boolean {
    const buf = this.buf;
    let p = this.skipWs(this.pos);
    if (p >= buf.length) {
      this.pos = p;
      return false;
    }
    const b = buf[p]!;
    switch (this.phase) {
      case Phase.Start:
        if (p === 0 && this.bufOrigin === 0 && b === 0xef) {
          // UTF-8 byte order mark
          if (buf.length < 3) throw NEED_MORE;
          this.pos = 3;
          return true;
        }
        if (b === Ch.BraceOpen) {
          this.phase = Phase.RootObject;
          this.pos = p + 1;
          return true;
        }
        if (b === Ch.BracketOpen) {
          this.phase = Phase.Events;
          this.bareArray = true;
          this.sawTraceEvents = true;
          this.pos = p + 1;
          return true;
        }
        throw new TraceError(
          `not a Chrome trace: expected '{' or '[' at byte ${this.bufOrigin + p}, found ${describeByte(b)}`,
          this.bufOrigin + p,
        );
      case Phase.RootObject: {
        if (b === Ch.BraceClose) {
          this.phase = Phase.Done;
          this.pos = p + 1;
          return true;
        }
        if (b === Ch.Comma) {
          this.pos = p + 1;
          return true;
        }
        if (b !== Ch.Quote) throw this.syntax(`expected a key in the top-level object, found ${describeByte(b)}`, p);
        const keyEnd = this.stringEnd(p);
        const isTraceEvents = bytesEqual(buf, p + 1, keyEnd - 1, TRACE_EVENTS_KEY);
        p = this.expect(this.skipWs(keyEnd), Ch.Colon, "':' after a key");
        p = this.skipWs(p);
        if (isTraceEvents) {
          if (p >= buf.length) throw NEED_MORE;
          if (buf[p] !== Ch.BracketOpen) {
            throw new TraceError(
              `not a Chrome trace: traceEvents is not an array (found ${describeByte(buf[p]!)} at byte ${this.bufOrigin + p})`,
              this.bufOrigin + p,
            );
          }
          this.sawTraceEvents = true;
          this.phase = Phase.Events;
          this.pos = p + 1;
        } else {
          this.pos = this.skipValue(p);
        }
        return true;
      }
      case Phase.Events:
        if (b === Ch.BracketClose) {
          this.phase = this.bareArray ? Phase.Done : Phase.RootObject;
          this.pos = p + 1;
          return true;
        }
        if (b === Ch.Comma) {
          this.pos = p + 1;
          return true;
        }
        if (b === Ch.BraceOpen) {
          this.pos = this.parseEvent(p);
          return true;
        }
        this.pos = this.skipValue(p);
        this.problems.add('entry of traceEvents is not an object, skipped', this.bufOrigin + p);
        return true;
      case Phase.Done:
        if (this.trailingDataByte < 0) this.trailingDataByte = this.bufOrigin + p;
        this.pos = buf.length;
        return false;
    }
  }

  /** Stores the parsed event (a slice, metadata or a flow end) or logs why it was skipped. */
  protected record(byte: number): void {
    const ev = this.event;
    if (ev.phLength !== 1) {
      this.problems.add(ev.phLength === 0 ? "event has no 'ph' (phase), skipped" : 'unknown phase, skipped', byte);
      return;
    }
    switch (ev.ph) {
      case PH_COMPLETE:
        this.recordSlice(byte);
        return;
      case PH_METADATA:
        this.recordMetadata();
        return;
      case PH_FLOW_START:
      case PH_FLOW_END:
        this.recordFlow(byte);
        return;
      case PH_INSTANT:
      case PH_INSTANT_OLD:
        return; // markers such as "Iteration Start"; not drawn
      default:
        this.problems.add(`phase '${String.fromCharCode(ev.ph)}' is not shown`, byte);
    }
  }

  private recordSlice(byte: number): void {
    const ev = this.event;
    if (ev.tsWrongType || !Number.isFinite(ev.ts)) {
      this.problems.add("'ts' missing or not a number, skipped", byte);
      return;
    }
    if (Math.abs(ev.ts) > MAX_ABS_TS_US) {
      this.problems.add("'ts' beyond ±1e17 µs, skipped", byte);
      return;
    }
    let dur = ev.dur;
    if (!ev.hasDur) {
      this.problems.add("complete event without 'dur', drawn as 0 µs", byte);
      dur = 0;
    } else if (ev.durWrongType || !Number.isFinite(dur) || dur > MAX_ABS_TS_US) {
      this.problems.add("'dur' not a finite number, skipped", byte);
      return;
    } else if (dur < 0) {
      this.problems.add("negative 'dur', drawn as 0 µs", byte);
      dur = 0;
    }
    if (!ev.hasPid || !ev.hasTid) this.problems.add("'pid' or 'tid' missing, put on track '?'", byte);
    const device = isDeviceCat(ev.cat);
    const trackIndex = this.trackOf(device);
    const raw = this.raw;
    let nameId: number;
    if (ev.nameStart < 0) {
      this.problems.add("'name' missing or not a string, shown as '(unnamed)'", byte);
      nameId = raw.internText('(unnamed)');
    } else nameId = this.internName(ev.nameStart, ev.nameEnd, byte, ev.nameHash);
    const row = raw.count++;
    raw.start.push(row, ev.ts);
    raw.dur.push(row, wholeNs(dur));
    raw.track.push(row, trackIndex);
    raw.name.push(row, nameId);
    raw.kind.push(row, this.kindOf(nameId, ev.cat, device));
    const correlation = this.readArgs(device);
    if (this.kernelArgsRead) raw.addKernelArgs(row, this.argScratch);
    raw.correlation.push(row, correlation);
  }

  private recordMetadata(): void {
    const ev = this.event;
    if (ev.nameStart < 0 || ev.argsStart < 0) return;
    const what = this.decode(ev.nameStart, ev.nameEnd);
    this.idTexts();
    const isProcess = what.startsWith('process_');
    if (!isProcess && !what.startsWith('thread_')) return;
    const args = this.readMetaArgs();
    if (isProcess) {
      const meta = this.raw.processMeta.get(ev.pid) ?? {};
      if (what === 'process_name' && args.name !== undefined) meta.name = args.name;
      if (what === 'process_labels' && args.labels !== undefined) meta.labels = args.labels;
      if (what === 'process_sort_index' && args.sortIndex !== undefined) meta.sortIndex = args.sortIndex;
      this.raw.processMeta.set(ev.pid, meta);
    } else {
      const key = `${ev.pid}\u0000${ev.tid}`;
      const meta = this.raw.threadMeta.get(key) ?? {};
      if (what === 'thread_name' && args.name !== undefined) meta.name = args.name;
      if (what === 'thread_sort_index' && args.sortIndex !== undefined) meta.sortIndex = args.sortIndex;
      this.raw.threadMeta.set(key, meta);
    }
  }

  private recordFlow(byte: number): void {
    const ev = this.event;
    if ((Number.isNaN(ev.id) && !ev.idText) || !Number.isFinite(ev.ts)) {
      this.problems.add("flow event without 'id' or 'ts', skipped", byte);
      return;
    }
    const track = this.trackOf(isDeviceCat(ev.cat));
    if (!this.raw.flows.add(ev.id, ev.idText, ev.ph === PH_FLOW_END, track, ev.ts, byte))
      this.problems.add(PROBLEM_DUPLICATE_FLOW, byte);
  }

  private lastTrackKey = -1;
  private lastTrackIndex = 0;
  /** The event's track (by pid and tid; a device event marks it a GPU stream), added when new. */
  private trackOf(device: boolean): number {
    const ev = this.event;
    const tracks = this.raw.tracks;
    const numeric =
      Number.isInteger(ev.pidNum) &&
      Number.isInteger(ev.tidNum) &&
      ev.pidNum >= 0 &&
      ev.tidNum >= 0 &&
      ev.pidNum < 2 ** 26 &&
      ev.tidNum < 2 ** 26;
    if (numeric && ev.pidNum * 2 ** 26 + ev.tidNum === this.lastTrackKey) {
      if (device) tracks[this.lastTrackIndex]!.gpu = true;
      return this.lastTrackIndex;
    }
    if (!numeric) this.idTexts();
    const numKey = numeric ? ev.pidNum * 2 ** 26 + ev.tidNum : -1;
    const textKey = numeric ? '' : `${ev.pid}\u0000${ev.tid}`;
    let index = this.raw.findTrack(numKey, textKey);
    if (numeric && index !== undefined) {
      this.lastTrackKey = numKey;
      this.lastTrackIndex = index;
    }
    if (index === undefined) {
      this.idTexts();
      index = this.raw.addTrack({
        pid: ev.hasPid ? ev.pid : '?',
        tid: ev.hasTid ? ev.tid : '?',
        gpu: device,
        numKey,
        textKey,
      });
    } else if (device) {
      tracks[index]!.gpu = true;
    }
    return index;
  }

  private kindOf(nameId: number, cat: Cat, device: boolean): SliceKind {
    const cache = device ? this.deviceKindOfName : this.hostKindOfName;
    if (nameId < cache.length && cache[nameId]! >= 0) return cache[nameId]!;
    const name = this.raw.names[nameId]!;
    const kind = device ? classifyDeviceName(name, cat) : classifyHostName(name, cat);
    // Cache only when the category cannot change the answer for this name.
    if (device ? cat === Cat.Kernel : cat === Cat.CpuOp || cat === Cat.PythonFunction || cat === Cat.UserAnnotation) {
      if (nameId >= cache.length) {
        const grown = new Int8Array(Math.max(cache.length * 2, nameId + 1)).fill(-1);
        grown.set(cache);
        if (device) this.deviceKindOfName = grown;
        else this.hostKindOfName = grown;
        grown[nameId] = kind;
      } else cache[nameId] = kind;
    }
    return kind;
  }

  /** Interns the raw bytes of a name: repeated names are found by hash without decoding them again. */
  private internName(start: number, end: number, byte: number, hash: number): number {
    const known = this.rawNames.find(this.buf, start, end, hash);
    if (known >= 0) return known;
    // Several raw spellings (escapes) can decode to one name: each spelling gets its own entry.
    const id = this.raw.internText(this.decode(start, end, byte));
    this.rawNames.add(this.buf, start, end, hash, id);
    return id;
  }

  // ---- Parsing a file in two halves (see scanPlainParallel): the second half starts inside traceEvents. ----

  /**
   * @internal Makes this scanner go on at absolute byte `origin`, inside the traceEvents array, at an event: a
   * fresh one, or one whose bytes so far ended between two events (false, changing nothing, where they did not).
   */
  startInsideEvents(origin: number, bareArray: boolean): boolean {
    if (this.phase !== Phase.Start && !this.endsBetweenEvents()) return false;
    this.phase = Phase.Events;
    this.bareArray = bareArray;
    this.sawTraceEvents = true;
    this.buf = new Uint8Array(0);
    this.pos = 0;
    this.bufOrigin = origin;
    return true;
  }

  /**
   * @internal The raw trace of the byte ranges read (startInsideEvents before each but one from the file's start),
   * or null where the last one did not end between two events or at the document's end.
   */
  rangesRead(): RawTrace | null {
    if (this.phase === Phase.Done) return this.stopped ? null : this.raw;
    return this.endsBetweenEvents() ? this.raw : null;
  }

  /** @internal Parses what is buffered; true when it all parsed and ended between two entries of traceEvents. */
  endsBetweenEvents(): boolean {
    if (!this.stopped) {
      this.retryAt = 0;
      this.run(false);
    }
    return !this.stopped && this.phase === Phase.Events && this.pos === this.buf.length;
  }

  /** @internal Ends the second half's document (as finish() does, without report or model) and exports its raw state. */
  finishHalf(): HalfState {
    if (!this.stopped) this.run(true);
    return {
      ...this.raw.half(),
      phase: this.phase,
      stopped: this.stopped ? { what: this.stopped.what, byte: this.stopped.byte } : null,
      trailingDataByte: this.trailingDataByte,
      endByte: this.bufOrigin + this.buf.length,
    };
  }

  /**
   * @internal Appends the second half (parsed by another scanner from where this one ended) as if this scanner
   * had read it: names, tracks and flows are remapped to this scanner's ids in first-mention order. Returns
   * false, changing nothing, where the result could differ from one scanner reading the whole file (rare
   * problems whose count depends on what the first half saw); the caller then reads the file in one pass.
   */
  mergeHalf(b: HalfState): boolean {
    if (b.problems.has(PROBLEM_UTF8) || b.problems.has(PROBLEM_ESCAPE)) return false; // names decoded once per file, not per half
    if (!this.raw.appendHalf(b)) return false;
    this.lastTrackKey = -1;
    this.phase = b.phase;
    this.stopped = b.stopped ? new SyntaxProblem(b.stopped.what, b.stopped.byte) : null;
    this.trailingDataByte = b.trailingDataByte;
    this.buf = new Uint8Array(0);
    this.pos = 0;
    this.bufOrigin = b.endByte;
    return true;
  }

  private reportEnd(): void {
    const stop = this.stopped;
    const { count, notes } = this.raw;
    if (this.phase === Phase.Start && !stop) throw new TraceError('empty file: no JSON document', 0);
    if (stop) {
      const what = `${stop.what} at byte ${stop.byte}`;
      if (!this.sawTraceEvents)
        throw new TraceError(`not a Chrome trace: ${what} before any traceEvents array`, stop.byte);
      if (count === 0) throw new TraceError(`${what} — 0 events read before it`, stop.byte);
      notes.push(`${what} — ${count} events read before it; showing those`);
      return;
    }
    if (!this.sawTraceEvents) throw new TraceError('not a Chrome trace: no traceEvents array', this.bufOrigin);
    const problems = this.problems.messages();
    if (count === 0 && problems.length > 0) throw new TraceError(`no usable events: ${problems.join('; ')}`);
    if (count === 0) notes.push('the trace has no events');
    if (this.phase === Phase.Events || this.phase === Phase.RootObject) {
      notes.push(`truncated JSON at byte ${this.bufOrigin + this.buf.length} — ${count} events read before it`);
    }
    if (this.trailingDataByte >= 0)
      notes.push(`data after the end of the JSON document at byte ${this.trailingDataByte} was ignored`);
  }
}

/** Scans a whole trace held in memory. */
export function scanTraceBytes(bytes: Uint8Array): TraceModel {
  const scanner = new TraceScanner();
  scanner.push(bytes);
  return scanner.finish();
}
