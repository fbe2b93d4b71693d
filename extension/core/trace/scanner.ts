// Byte-level scanner for torch.profiler Chrome traces. It never builds one string of the file (V8 caps a
// string near 512 MB): chunks are parsed in place, one event at a time, straight into growable typed columns.
// An event cut by a chunk boundary is retried once more bytes arrive (retries only when the carried bytes
// have doubled, so a giant event still costs linear time).
import { createReadStream, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pipeline } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { createGunzip } from 'node:zlib';
import { isKernelKind, KERNEL_ARG_FIELDS, SliceKind, type TraceModel, type TrackInfo } from './model.ts';
import { FlowTable, type FlowColumns } from './flows.ts';
import { Column, release, scratchArray } from './memory.ts';
import { byLength, bytesEqual, Ch, describeByte, JsonCursor, latin1, matchKey, matchKeyByLength, NEED_MORE, PROBLEM_ESCAPE, PROBLEM_UTF8, SyntaxProblem } from './jsonCursor.ts';
import { ProblemLog, TraceError } from './problems.ts';
import { RawNameTable } from './rawNames.ts';
import { RowsByKey } from './rowsByKey.ts';
import { Cat, CAT_NAMES, classifyDeviceName, classifyHostName, isDeviceCat } from './sliceKinds.ts';
import { countingSortRows, orderByTrackAndStart, sortKeys, sortRangeNearlySorted } from './sort.ts';
import { overlapsWindow, sliceWindow, viewWindow, type FirstView } from './window.ts';

const enum Phase { Start, RootObject, Events, Done }

const encoder = new TextEncoder();
const bytesOf = (text: string): Uint8Array => encoder.encode(text);
const CAT_KEYS = CAT_NAMES.map(([text, cat]) => ({ bytes: bytesOf(text), cat }));
const EVENT_KEYS = ['ph', 'cat', 'name', 'pid', 'tid', 'ts', 'dur', 'id', 'args'].map(bytesOf);
const enum EventKey { Ph, Cat, Name, Pid, Tid, Ts, Dur, Id, Args }
const TRACE_EVENTS_KEY = bytesOf('traceEvents');
// args keys read from device events: the KERNEL_ARG_FIELDS (grid and block are 3-element arrays) + correlation
const ARG_CORRELATION = 0;
const ARG_KEYS = ['correlation', 'grid', 'block', ...KERNEL_ARG_FIELDS.slice(6)].map(bytesOf);
const ARG_KEYS_BY_LENGTH = byLength(ARG_KEYS);
const CORRELATION_KEY = ARG_KEYS[ARG_CORRELATION];
const CAT_BYTES = CAT_KEYS.map(({ bytes }) => bytes);
const CAT_BYTES_BY_LENGTH = byLength(CAT_BYTES);
const [KEY_A, KEY_C, KEY_D, KEY_H, KEY_I, KEY_N, KEY_P, KEY_S, KEY_T] = [...'acdhinpst'].map((c) => c.charCodeAt(0));
const ARGS_FIRST_SCALAR_FIELD = 6; // KERNEL_ARG_FIELDS index of 'registers per thread'
const META_KEYS = ['name', 'labels', 'sort_index'].map(bytesOf);
const ARG_FIELD_COUNT = KERNEL_ARG_FIELDS.length;

const MAX_DEPTH = 65_535;
/** Timestamps beyond this (µs) are treated as garbage: 10^17 µs is ~3000 years after the epoch. */
const MAX_ABS_TS_US = 1e17;

/** numKey: the numeric (pid, tid) map key, or -1 when the track is keyed by textKey (kept for merging halves) */
interface RawTrack { pid: string; tid: string; gpu: boolean; numKey: number; textKey: string }

/** Scratch fields of the event being parsed; reused to avoid one allocation per event. */
class EventFields {
  ph = 0; phLength = 0;
  cat: Cat = Cat.Unknown; hasCat = false;
  nameStart = -1; nameEnd = -1; nameHash = 0;
  pid = ''; pidNum = NaN; tid = ''; tidNum = NaN; hasPid = false; hasTid = false;
  ts = NaN; tsWrongType = false; dur = NaN; durWrongType = false; hasDur = false;
  id = NaN; idText = '';
  argsStart = -1; argsEnd = -1;
  /** hostArgs() read args in one pass: hostCorrelation is what readArgs would return for a host event */
  hostCorrelationKnown = false; hostCorrelation = -1;
  reset(): void {
    this.hostCorrelationKnown = false; this.hostCorrelation = -1;
    this.ph = 0; this.phLength = 0; this.cat = Cat.Unknown; this.hasCat = false; this.nameStart = -1; this.nameEnd = -1;
    this.pid = ''; this.pidNum = NaN; this.tid = ''; this.tidNum = NaN; this.hasPid = false; this.hasTid = false;
    this.ts = NaN; this.tsWrongType = false; this.dur = NaN; this.durWrongType = false; this.hasDur = false;
    this.id = NaN; this.idText = ''; this.argsStart = -1; this.argsEnd = -1;
  }
}

const PROBLEM_DUPLICATE_FLOW = 'duplicate flow start id, later one ignored';

/** What a scanner of the second half of a file hands back (structured-cloneable; typed arrays are transferred). */
export interface HalfState {
  count: number;
  start: Float64Array; dur: Float64Array; track: Uint32Array; name: Uint32Array; kind: Uint8Array; correlation: Float64Array;
  argRows: number; argSlice: Uint32Array; argValues: Float64Array;
  names: string[]; tracks: RawTrack[];
  processMeta: Map<string, { name?: string; labels?: string; sortIndex?: number }>;
  threadMeta: Map<string, { name?: string; sortIndex?: number }>;
  flows: FlowColumns;
  problems: Map<string, { count: number; firstByte: number }>;
  phase: Phase; stopped: { what: string; byte: number } | null; trailingDataByte: number; endByte: number; notes: string[];
}

/**
 * Incremental scanner: push() byte chunks in order, then finish(). Holds only the columns, the interned
 * names and the bytes of at most one unfinished event.
 */
export class TraceScanner extends JsonCursor {
  /** after a NEED_MORE, don't retry until buf holds this many bytes (keeps giant events linear) */
  private retryAt = 0;
  private phase = Phase.Start;
  private bareArray = false;
  private stopped: SyntaxProblem | null = null;
  private trailingDataByte = -1;
  private sawTraceEvents = false;

  private count = 0;
  private readonly start = new Column(Float64Array);
  private readonly dur = new Column(Float64Array);
  private readonly track = new Column(Uint32Array);
  private readonly name = new Column(Uint32Array);
  private readonly kind = new Column(Uint8Array);
  private readonly correlation = new Column(Float64Array);
  private argRows = 0;
  private readonly argSlice = new Column(Uint32Array);
  private readonly argValues = new Column(Float64Array);

  private readonly names: string[] = [];
  private readonly rawNames = new RawNameTable();
  private readonly nameByText = new Map<string, number>();
  /** SliceKind per name id for device and host events (-1 = not classified yet) */
  private deviceKindOfName = new Int8Array(256).fill(-1);
  private hostKindOfName = new Int8Array(256).fill(-1);
  private readonly tracks: RawTrack[] = [];
  private readonly trackByNumericKey = new Map<number, number>();
  private readonly trackByTextKey = new Map<string, number>();
  private readonly processMeta = new Map<string, { name?: string; labels?: string; sortIndex?: number }>();
  private readonly threadMeta = new Map<string, { name?: string; sortIndex?: number }>();
  /** one flow start may fan out to many ends (a cudaGraphLaunch to each kernel of the replay) */
  private flows = new FlowTable();
  private readonly notes: string[] = [];
  private readonly event = new EventFields();
  private readonly argScratch = new Float64Array(ARG_FIELD_COUNT);

  constructor() {
    super(new ProblemLog());
  }

  /** Feeds the next chunk of the document. */
  push(chunk: Uint8Array): void {
    if (this.stopped || chunk.length === 0) return;
    this.append(chunk);
    if (this.buf.length < this.retryAt) return;
    this.run(false);
  }

  /** Slices read so far. */
  get eventCount(): number {
    return this.count;
  }

  /** Adds a problem found outside the JSON (e.g. by the decompressor). */
  warn(message: string): void {
    this.notes.push(message);
  }

  /** Ends the document and builds the model; throws TraceError when nothing usable was read. */
  finish(): TraceModel {
    this.end();
    return this.build();
  }

  /** @internal finish() in two steps: end() throws TraceError when nothing usable was read; model() builds. */
  end(): void {
    if (!this.stopped) this.run(true);
    this.reportEnd();
  }

  /** @internal See end(). */
  model(): TraceModel {
    return this.build();
  }

  /**
   * @internal After end(): the model of only the slices around `view` (see window.ts), without building the
   * whole model first; null when the trace has no steps to say where the view opens. Equals sliceWindow() of
   * the full model over the same window, except that track depths count only these slices (and steps and
   * CUDA-graph replays may differ where only flow events, not args, link launches to kernels).
   */
  preview(view: FirstView | null): TraceModel | null {
    const n = this.count;
    const absStart = this.start.data;
    const dur = this.dur.data;
    const origin = minimum(absStart, n);
    const start = scratchArray(Float64Array, n);
    for (let i = 0; i < n; i++) start[i] = absStart[i] - origin;
    const tracks = this.tracks;
    const track = this.track.data;
    const found = findSteps({
      count: n, start, dur, kind: this.kind.data, name: this.name.data, correlation: this.correlation.data, names: this.names,
      onGpu: (row) => tracks[track[row]].gpu,
    });
    const window = viewWindow(found.steps, view);
    const rows: number[] = [];
    if (window) for (let i = 0; i < n; i++) if (overlapsWindow(start[i], dur[i], window[0], window[1])) rows.push(i);
    release(start);
    if (!window) return null;
    const [from, to] = window;
    const graphLaunches = graphLaunchCorrelations({ count: n, name: this.name.data, kind: this.kind.data, correlation: this.correlation.data, names: this.names });
    const part = new TraceScanner();
    part.adoptRows(this, Uint32Array.from(rows), from + origin, to + origin);
    return part.build({ origin, graphLaunches, ...found });
  }

  /** preview()'s scanner: these rows of `whole`, its names, tracks and metadata, and the flows inside [from, to] (absolute µs). */
  private adoptRows(whole: TraceScanner, rows: Uint32Array, from: number, to: number): void {
    const n = rows.length;
    const pick = <T extends Float64Array | Uint32Array | Uint8Array>(column: T): T => {
      const out = new (column.constructor as new (length: number) => T)(n);
      for (let k = 0; k < n; k++) out[k] = column[rows[k]];
      return out;
    };
    this.count = n;
    this.start.data = pick(whole.start.data); this.dur.data = pick(whole.dur.data); this.track.data = pick(whole.track.data);
    this.name.data = pick(whole.name.data); this.kind.data = pick(whole.kind.data); this.correlation.data = pick(whole.correlation.data);
    const newRow = scratchArray(Int32Array, whole.count).fill(-1);
    for (let k = 0; k < n; k++) newRow[rows[k]] = k;
    const argRows: number[] = [];
    for (let r = 0; r < whole.argRows; r++) if (newRow[whole.argSlice.data[r]] >= 0) argRows.push(r);
    this.argRows = argRows.length;
    this.argSlice.data = Uint32Array.from(argRows, (r) => newRow[whole.argSlice.data[r]]);
    release(newRow);
    this.argValues.data = new Float64Array(argRows.length * ARG_FIELD_COUNT);
    argRows.forEach((r, k) => this.argValues.data.set(whole.argValues.data.subarray(r * ARG_FIELD_COUNT, (r + 1) * ARG_FIELD_COUNT), k * ARG_FIELD_COUNT));
    for (const name of whole.names) this.names.push(name);
    for (const track of whole.tracks) this.tracks.push(track);
    for (const [pid, meta] of whole.processMeta) this.processMeta.set(pid, meta);
    for (const [key, meta] of whole.threadMeta) this.threadMeta.set(key, meta);
    this.flows = whole.flows.within(from, to);
  }

  /**
   * Like push(), for a chunk whose memory the caller reuses for the next chunk (a file read into one buffer):
   * bytes still unread afterwards are copied out. Saves allocating a fresh chunk per read.
   */
  pushReusable(chunk: Uint8Array): void {
    this.push(chunk);
    this.detachFrom(chunk);
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
        if (thrown instanceof SyntaxProblem) { this.stopAt(thrown); return; }
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
    if (p >= buf.length) { this.pos = p; return false; }
    const b = buf[p];
    switch (this.phase) {
      case Phase.Start:
        if (p === 0 && this.bufOrigin === 0 && b === 0xef) { // UTF-8 byte order mark
          if (buf.length < 3) throw NEED_MORE;
          this.pos = 3;
          return true;
        }
        if (b === Ch.BraceOpen) { this.phase = Phase.RootObject; this.pos = p + 1; return true; }
        if (b === Ch.BracketOpen) { this.phase = Phase.Events; this.bareArray = true; this.sawTraceEvents = true; this.pos = p + 1; return true; }
        throw new TraceError(`not a Chrome trace: expected '{' or '[' at byte ${this.bufOrigin + p}, found ${describeByte(b)}`, this.bufOrigin + p);
      case Phase.RootObject: {
        if (b === Ch.BraceClose) { this.phase = Phase.Done; this.pos = p + 1; return true; }
        if (b === Ch.Comma) { this.pos = p + 1; return true; }
        if (b !== Ch.Quote) throw this.syntax(`expected a key in the top-level object, found ${describeByte(b)}`, p);
        const keyEnd = this.stringEnd(p);
        const isTraceEvents = bytesEqual(buf, p + 1, keyEnd - 1, TRACE_EVENTS_KEY);
        p = this.expect(this.skipWs(keyEnd), Ch.Colon, "':' after a key");
        p = this.skipWs(p);
        if (isTraceEvents) {
          if (p >= buf.length) throw NEED_MORE;
          if (buf[p] !== Ch.BracketOpen) {
            throw new TraceError(`not a Chrome trace: traceEvents is not an array (found ${describeByte(buf[p])} at byte ${this.bufOrigin + p})`, this.bufOrigin + p);
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
        if (b === Ch.BracketClose) { this.phase = this.bareArray ? Phase.Done : Phase.RootObject; this.pos = p + 1; return true; }
        if (b === Ch.Comma) { this.pos = p + 1; return true; }
        if (b === Ch.BraceOpen) { this.pos = this.parseEvent(p); return true; }
        this.pos = this.skipValue(p);
        this.problems.add('entry of traceEvents is not an object, skipped', this.bufOrigin + p);
        return true;
      case Phase.Done:
        if (this.trailingDataByte < 0) this.trailingDataByte = this.bufOrigin + p;
        this.pos = buf.length;
        return false;
    }
  }

  /** Parses one event object at p (a '{'); returns the index after it. */
  private parseEvent(p: number): number {
    const buf = this.buf;
    const ev = this.event;
    ev.reset();
    const eventByte = this.bufOrigin + p;
    p = this.skipWs(p + 1);
    if (p >= buf.length) throw NEED_MORE;
    if (buf[p] === Ch.BraceClose) { this.problems.add("event has no 'ph' (phase), skipped", eventByte); return p + 1; }
    const len = buf.length;
    for (;;) {
      if (p >= buf.length) throw NEED_MORE;
      if (buf[p] !== Ch.Quote) throw this.syntax(`expected a key in an event, found ${describeByte(buf[p])}`, p);
      const keyEnd = this.stringEnd(p);
      const key = eventKeyOf(buf, p + 1, keyEnd - 1);
      p = keyEnd < buf.length && buf[keyEnd] === Ch.Colon ? keyEnd + 1 : this.expect(this.skipWs(keyEnd), Ch.Colon, "':' after a key");
      if (p < buf.length && buf[p] !== Ch.Quote && buf[p] <= Ch.Space) p = this.skipWs(p);
      if (p >= buf.length) throw NEED_MORE;
      const isString = buf[p] === Ch.Quote;
      let end: number;
      switch (key) {
        case EventKey.Ph:
          end = this.skipValue(p);
          if (isString) { ev.ph = buf[p + 1]; ev.phLength = end - p - 2; }
          break;
        case EventKey.Cat:
          end = this.skipValue(p);
          if (isString) { ev.hasCat = true; ev.cat = matchCat(buf, p + 1, end - 1); }
          break;
        case EventKey.Name:
          if (isString) { end = this.hashedStringEnd(p); ev.nameStart = p + 1; ev.nameEnd = end - 1; ev.nameHash = this.stringHash; }
          else end = this.skipValue(p);
          break;
        case EventKey.Pid:
        case EventKey.Tid: {
          // A numeric id's text (String(num)) is made only when needed: see idTexts().
          let text = '';
          let num = NaN;
          if (isString) { end = this.stringEnd(p); text = this.decode(p + 1, end - 1); }
          else { end = this.parseNumberOrSkip(p); num = this.numberValue; if (Number.isNaN(num)) text = latin1(buf, p, Math.min(end, p + 32)); }
          if (key === EventKey.Pid) { ev.pid = text; ev.pidNum = num; ev.hasPid = true; } else { ev.tid = text; ev.tidNum = num; ev.hasTid = true; }
          break;
        }
        case EventKey.Ts:
        case EventKey.Dur:
          end = this.parseNumberOrSkip(p);
          if (key === EventKey.Ts) { ev.ts = this.numberValue; ev.tsWrongType = Number.isNaN(ev.ts); }
          else { ev.dur = this.numberValue; ev.hasDur = true; ev.durWrongType = Number.isNaN(ev.dur); }
          break;
        case EventKey.Id:
          if (isString) { end = this.stringEnd(p); ev.idText = this.decode(p + 1, end - 1); ev.id = NaN; }
          else { end = this.parseNumberOrSkip(p); ev.id = this.numberValue; ev.idText = ''; }
          break;
        case EventKey.Args:
          if (buf[p] === Ch.BraceOpen) {
            end = this.hostArgs(p);
            ev.hostCorrelationKnown = end >= 0; // per args object: a repeated 'args' key replaces the first
            if (end < 0) end = this.skipValue(p);
            ev.argsStart = p; ev.argsEnd = end;
          } else end = this.skipValue(p);
          break;
        default:
          end = this.skipValue(p);
      }
      p = end < len && buf[end] > Ch.Space ? end : this.skipWs(end);
      if (p >= len) throw NEED_MORE;
      if (buf[p] === Ch.Comma) { p++; if (p < len && buf[p] <= Ch.Space) p = this.skipWs(p); continue; }
      if (buf[p] === Ch.BraceClose) break;
      throw this.syntax(`expected ',' or '}' in an event, found ${describeByte(buf[p])}`, p);
    }
    this.record(eventByte);
    return p + 1;
  }

  /** Stores the parsed event (a slice, metadata or a flow end) or logs why it was skipped. */
  private record(byte: number): void {
    const ev = this.event;
    if (ev.phLength !== 1) { this.problems.add(ev.phLength === 0 ? "event has no 'ph' (phase), skipped" : 'unknown phase, skipped', byte); return; }
    switch (ev.ph) {
      case PH_COMPLETE: this.recordSlice(byte); return;
      case PH_METADATA: this.recordMetadata(); return;
      case PH_FLOW_START: case PH_FLOW_END: this.recordFlow(byte); return;
      case PH_INSTANT: case PH_INSTANT_OLD: return; // markers such as "Iteration Start"; not drawn
      default: this.problems.add(`phase '${String.fromCharCode(ev.ph)}' is not shown`, byte);
    }
  }

  private recordSlice(byte: number): void {
    const ev = this.event;
    if (ev.tsWrongType || !Number.isFinite(ev.ts)) { this.problems.add("'ts' missing or not a number, skipped", byte); return; }
    if (Math.abs(ev.ts) > MAX_ABS_TS_US) { this.problems.add("'ts' beyond ±1e17 µs, skipped", byte); return; }
    let dur = ev.dur;
    if (!ev.hasDur) { this.problems.add("complete event without 'dur', drawn as 0 µs", byte); dur = 0; }
    else if (ev.durWrongType || !Number.isFinite(dur) || dur > MAX_ABS_TS_US) { this.problems.add("'dur' not a finite number, skipped", byte); return; }
    else if (dur < 0) { this.problems.add("negative 'dur', drawn as 0 µs", byte); dur = 0; }
    if (!ev.hasPid || !ev.hasTid) this.problems.add("'pid' or 'tid' missing, put on track '?'", byte);
    const device = isDeviceCat(ev.cat);
    const trackIndex = this.trackOf(device);
    let nameId: number;
    if (ev.nameStart < 0) { this.problems.add("'name' missing or not a string, shown as '(unnamed)'", byte); nameId = this.internText('(unnamed)'); }
    else nameId = this.internName(ev.nameStart, ev.nameEnd, byte, ev.nameHash);
    const row = this.count++;
    this.start.push(row, ev.ts);
    this.dur.push(row, dur);
    this.track.push(row, trackIndex);
    this.name.push(row, nameId);
    this.kind.push(row, this.kindOf(nameId, ev.cat, device));
    this.correlation.push(row, this.readArgs(row, device));
  }

  /** Reads correlation (all events) and the kernel args (device events); returns the correlation or -1. */
  private readArgs(row: number, device: boolean): number {
    const ev = this.event;
    if (ev.argsStart < 0) return -1;
    if (!device && ev.hostCorrelationKnown) return ev.hostCorrelation;
    const buf = this.buf;
    const values = this.argScratch;
    values.fill(NaN);
    let correlation = -1;
    let p = this.skipWs(ev.argsStart + 1);
    if (buf[p] === Ch.BraceClose) return -1;
    for (;;) {
      if (buf[p] !== Ch.Quote) throw this.syntax(`expected a key in args, found ${describeByte(buf[p])}`, p);
      const keyEnd = this.stringEnd(p);
      const key = matchKeyByLength(buf, p + 1, keyEnd - 1, ARG_KEYS, ARG_KEYS_BY_LENGTH);
      p = this.skipWs(this.expect(this.skipWs(keyEnd), Ch.Colon, "':' after a key"));
      let end: number;
      if (key === ARG_CORRELATION) {
        end = this.parseNumberOrSkip(p);
        if (Number.isFinite(this.numberValue)) correlation = this.numberValue;
      } else if (device && (key === 1 || key === 2) && buf[p] === Ch.BracketOpen) {
        end = this.readTriple(p, values, key === 1 ? 0 : 3);
      } else if (device && key > 2) {
        end = this.parseNumberOrSkip(p);
        values[ARGS_FIRST_SCALAR_FIELD + key - 3] = this.numberValue;
      } else {
        end = this.skipValue(p);
      }
      p = this.skipWs(end);
      if (buf[p] === Ch.Comma) { p = this.skipWs(p + 1); continue; }
      break;
    }
    if (device && values.some((v) => !Number.isNaN(v))) {
      const argRow = this.argRows++;
      this.argSlice.push(argRow, row);
      for (let f = 0; f < ARG_FIELD_COUNT; f++) this.argValues.push(argRow * ARG_FIELD_COUNT + f, values[f]);
    }
    return correlation;
  }

  /**
   * One-pass read of a well-formed flat args object at p (a '{') for host events, which need only the
   * correlation: leaves in event.hostCorrelation what readArgs would return and returns the index after the
   * object. Returns -1 on anything unusual (then skipValue + readArgs handle it, with their errors); throws
   * only NEED_MORE, where skipValue would too.
   */
  private hostArgs(p: number): number {
    const buf = this.buf;
    const len = buf.length;
    let correlation = -1;
    p++;
    if (p < len && buf[p] <= Ch.Space) p = this.skipWs(p);
    if (p >= len) throw NEED_MORE;
    if (buf[p] === Ch.BraceClose) { this.event.hostCorrelation = -1; return p + 1; }
    for (;;) {
      if (buf[p] !== Ch.Quote) return -1;
      const keyEnd = this.stringEnd(p);
      const isCorrelation = keyEnd - p - 2 === CORRELATION_KEY.length && bytesEqual(buf, p + 1, keyEnd - 1, CORRELATION_KEY);
      p = this.skipWs(keyEnd);
      if (p >= len) throw NEED_MORE;
      if (buf[p] !== Ch.Colon) return -1;
      p++;
      if (p < len && buf[p] <= Ch.Space) p = this.skipWs(p);
      if (p >= len) throw NEED_MORE;
      const first = buf[p];
      let end: number;
      if (first === Ch.Quote || first === Ch.BraceOpen || first === Ch.BracketOpen) {
        end = this.skipValue(p); // never a syntax error for these
      } else if (first === Ch.Minus || (first >= Ch.Zero && first <= Ch.Nine)) {
        end = this.parseNumberFast(p);
        if (end < 0) return -1;
        if (isCorrelation && Number.isFinite(this.numberValue)) correlation = this.numberValue;
      } else return -1;
      p = end < len && buf[end] > Ch.Space ? end : this.skipWs(end);
      if (p >= len) throw NEED_MORE;
      if (buf[p] === Ch.BraceClose) { this.event.hostCorrelation = correlation; return p + 1; }
      if (buf[p] !== Ch.Comma) return -1;
      p++;
      if (p < len && buf[p] <= Ch.Space) p = this.skipWs(p);
      if (p >= len) throw NEED_MORE;
    }
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
      const meta = this.processMeta.get(ev.pid) ?? {};
      if (what === 'process_name' && args.name !== undefined) meta.name = args.name;
      if (what === 'process_labels' && args.labels !== undefined) meta.labels = args.labels;
      if (what === 'process_sort_index' && args.sortIndex !== undefined) meta.sortIndex = args.sortIndex;
      this.processMeta.set(ev.pid, meta);
    } else {
      const key = `${ev.pid}\u0000${ev.tid}`;
      const meta = this.threadMeta.get(key) ?? {};
      if (what === 'thread_name' && args.name !== undefined) meta.name = args.name;
      if (what === 'thread_sort_index' && args.sortIndex !== undefined) meta.sortIndex = args.sortIndex;
      this.threadMeta.set(key, meta);
    }
  }

  private readMetaArgs(): { name?: string; labels?: string; sortIndex?: number } {
    const ev = this.event;
    const buf = this.buf;
    const out: { name?: string; labels?: string; sortIndex?: number } = {};
    let p = this.skipWs(ev.argsStart + 1);
    while (buf[p] === Ch.Quote) {
      const keyEnd = this.stringEnd(p);
      const key = matchKey(buf, p + 1, keyEnd - 1, META_KEYS);
      p = this.skipWs(this.expect(this.skipWs(keyEnd), Ch.Colon, "':' after a key"));
      let end: number;
      if (key === 2) {
        end = this.parseNumberOrSkip(p);
        if (Number.isFinite(this.numberValue)) out.sortIndex = this.numberValue;
      } else if (key >= 0 && buf[p] === Ch.Quote) {
        end = this.stringEnd(p);
        const text = this.decode(p + 1, end - 1);
        if (key === 0) out.name = text; else out.labels = text;
      } else {
        end = this.skipValue(p);
      }
      p = this.skipWs(end);
      if (buf[p] !== Ch.Comma) break;
      p = this.skipWs(p + 1);
    }
    return out;
  }

  private recordFlow(byte: number): void {
    const ev = this.event;
    if ((Number.isNaN(ev.id) && !ev.idText) || !Number.isFinite(ev.ts)) { this.problems.add("flow event without 'id' or 'ts', skipped", byte); return; }
    const track = this.trackOf(isDeviceCat(ev.cat));
    if (!this.flows.add(ev.id, ev.idText, ev.ph === PH_FLOW_END, track, ev.ts, byte)) this.problems.add(PROBLEM_DUPLICATE_FLOW, byte);
  }

  /** Fills in the text of numeric pid/tid values (String(num)), which parseEvent leaves empty. */
  private idTexts(): void {
    const ev = this.event;
    if (ev.hasPid && ev.pid === '' && !Number.isNaN(ev.pidNum)) ev.pid = String(ev.pidNum);
    if (ev.hasTid && ev.tid === '' && !Number.isNaN(ev.tidNum)) ev.tid = String(ev.tidNum);
  }

  private lastTrackKey = -1;
  private lastTrackIndex = 0;
  private trackOf(device: boolean): number {
    const ev = this.event;
    const numeric = Number.isInteger(ev.pidNum) && Number.isInteger(ev.tidNum) && ev.pidNum >= 0 && ev.tidNum >= 0 && ev.pidNum < 2 ** 26 && ev.tidNum < 2 ** 26;
    if (numeric && ev.pidNum * 2 ** 26 + ev.tidNum === this.lastTrackKey) {
      if (device) this.tracks[this.lastTrackIndex].gpu = true;
      return this.lastTrackIndex;
    }
    if (!numeric) this.idTexts();
    let index = numeric ? this.trackByNumericKey.get(ev.pidNum * 2 ** 26 + ev.tidNum) : this.trackByTextKey.get(`${ev.pid}\u0000${ev.tid}`);
    if (numeric && index !== undefined) { this.lastTrackKey = ev.pidNum * 2 ** 26 + ev.tidNum; this.lastTrackIndex = index; }
    if (index === undefined) {
      this.idTexts();
      index = this.tracks.length;
      const numKey = numeric ? ev.pidNum * 2 ** 26 + ev.tidNum : -1;
      const textKey = numeric ? '' : `${ev.pid}\u0000${ev.tid}`;
      this.tracks.push({ pid: ev.hasPid ? ev.pid : '?', tid: ev.hasTid ? ev.tid : '?', gpu: device, numKey, textKey });
      if (numeric) this.trackByNumericKey.set(numKey, index);
      else this.trackByTextKey.set(textKey, index);
    } else if (device) {
      this.tracks[index].gpu = true;
    }
    return index;
  }

  private kindOf(nameId: number, cat: Cat, device: boolean): SliceKind {
    const cache = device ? this.deviceKindOfName : this.hostKindOfName;
    if (nameId < cache.length && cache[nameId] >= 0) return cache[nameId];
    const name = this.names[nameId];
    const kind = device ? classifyDeviceName(name, cat) : classifyHostName(name, cat);
    // Cache only when the category cannot change the answer for this name.
    if (device ? cat === Cat.Kernel : cat === Cat.CpuOp || cat === Cat.PythonFunction || cat === Cat.UserAnnotation) {
      if (nameId >= cache.length) {
        const grown = new Int8Array(Math.max(cache.length * 2, nameId + 1)).fill(-1);
        grown.set(cache);
        if (device) this.deviceKindOfName = grown; else this.hostKindOfName = grown;
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
    const id = this.internText(this.decode(start, end, byte));
    this.rawNames.add(this.buf, start, end, hash, id);
    return id;
  }

  private internText(text: string): number {
    const existing = this.nameByText.get(text);
    if (existing !== undefined) return existing;
    const id = this.names.length;
    this.names.push(text);
    this.nameByText.set(text, id);
    return id;
  }

  // ---- Parsing a file in two halves (see scanPlainParallel): the second half starts inside traceEvents. ----

  /** @internal Makes this scanner start at absolute byte `origin`, inside the traceEvents array, at an event. */
  startInsideEvents(origin: number, bareArray: boolean): void {
    this.phase = Phase.Events;
    this.bareArray = bareArray;
    this.sawTraceEvents = true;
    this.bufOrigin = origin;
  }

  /** @internal Parses what is buffered; true when it all parsed and ended between two entries of traceEvents. */
  endsBetweenEvents(): boolean {
    if (!this.stopped) { this.retryAt = 0; this.run(false); }
    return !this.stopped && this.phase === Phase.Events && this.pos === this.buf.length;
  }

  /** @internal Ends the second half's document (as finish() does, without report or model) and exports its raw state. */
  finishHalf(): HalfState {
    if (!this.stopped) this.run(true);
    const n = this.count;
    return {
      count: n,
      start: this.start.data.slice(0, n), dur: this.dur.data.slice(0, n), track: this.track.data.slice(0, n),
      name: this.name.data.slice(0, n), kind: this.kind.data.slice(0, n), correlation: this.correlation.data.slice(0, n),
      argRows: this.argRows, argSlice: this.argSlice.data.slice(0, this.argRows),
      argValues: this.argValues.data.slice(0, this.argRows * ARG_FIELD_COUNT),
      names: this.names, tracks: this.tracks, processMeta: this.processMeta, threadMeta: this.threadMeta,
      flows: this.flows.columns(), problems: this.problems.problems,
      phase: this.phase, stopped: this.stopped ? { what: this.stopped.what, byte: this.stopped.byte } : null,
      trailingDataByte: this.trailingDataByte, endByte: this.bufOrigin + this.buf.length, notes: this.notes,
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
    let crossDuplicates = false;
    for (let r = 0; r < b.flows.count && !crossDuplicates; r++) crossDuplicates = !b.flows.isEnd[r] && this.flows.hasStartOf(b.flows, r);
    if (crossDuplicates && !this.problems.problems.has(PROBLEM_DUPLICATE_FLOW)) return false; // its place in the warning order
    const nameMap = new Uint32Array(b.names.length);
    for (let i = 0; i < b.names.length; i++) nameMap[i] = this.internText(b.names[i]);
    const trackMap = new Uint32Array(b.tracks.length);
    for (let i = 0; i < b.tracks.length; i++) {
      const t = b.tracks[i];
      let index = t.numKey >= 0 ? this.trackByNumericKey.get(t.numKey) : this.trackByTextKey.get(t.textKey);
      if (index === undefined) {
        index = this.tracks.length;
        this.tracks.push({ ...t });
        if (t.numKey >= 0) this.trackByNumericKey.set(t.numKey, index); else this.trackByTextKey.set(t.textKey, index);
      } else if (t.gpu) this.tracks[index].gpu = true;
      trackMap[i] = index;
    }
    this.lastTrackKey = -1;
    const base = this.count;
    const total = base + b.count;
    for (const column of [this.start, this.dur, this.track, this.name, this.kind, this.correlation]) column.reserve(total);
    this.start.data.set(b.start, base);
    this.dur.data.set(b.dur, base);
    this.correlation.data.set(b.correlation, base);
    this.kind.data.set(b.kind, base);
    const track = this.track.data;
    const name = this.name.data;
    for (let r = 0; r < b.count; r++) { track[base + r] = trackMap[b.track[r]]; name[base + r] = nameMap[b.name[r]]; }
    this.count = total;
    const argBase = this.argRows;
    this.argSlice.reserve(argBase + b.argRows);
    this.argValues.reserve((argBase + b.argRows) * ARG_FIELD_COUNT);
    for (let r = 0; r < b.argRows; r++) this.argSlice.data[argBase + r] = b.argSlice[r] + base;
    this.argValues.data.set(b.argValues, argBase * ARG_FIELD_COUNT);
    this.argRows = argBase + b.argRows;
    for (const [pid, meta] of b.processMeta) {
      const into = this.processMeta.get(pid) ?? {};
      if (meta.name !== undefined) into.name = meta.name;
      if (meta.labels !== undefined) into.labels = meta.labels;
      if (meta.sortIndex !== undefined) into.sortIndex = meta.sortIndex;
      this.processMeta.set(pid, into);
    }
    for (const [key, meta] of b.threadMeta) {
      const into = this.threadMeta.get(key) ?? {};
      if (meta.name !== undefined) into.name = meta.name;
      if (meta.sortIndex !== undefined) into.sortIndex = meta.sortIndex;
      this.threadMeta.set(key, into);
    }
    this.flows.append(b.flows, trackMap, (byte) => this.problems.add(PROBLEM_DUPLICATE_FLOW, byte));
    for (const [what, seen] of b.problems) {
      const into = this.problems.problems.get(what);
      if (into) into.count += seen.count; else this.problems.problems.set(what, { count: seen.count, firstByte: seen.firstByte });
    }
    this.notes.push(...b.notes);
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
    if (this.phase === Phase.Start && !stop) throw new TraceError('empty file: no JSON document', 0);
    if (stop) {
      const what = `${stop.what} at byte ${stop.byte}`;
      if (!this.sawTraceEvents) throw new TraceError(`not a Chrome trace: ${what} before any traceEvents array`, stop.byte);
      if (this.count === 0) throw new TraceError(`${what} — 0 events read before it`, stop.byte);
      this.notes.push(`${what} — ${this.count} events read before it; showing those`);
      return;
    }
    if (!this.sawTraceEvents) throw new TraceError('not a Chrome trace: no traceEvents array', this.bufOrigin);
    const problems = this.problems.messages();
    if (this.count === 0 && problems.length > 0) throw new TraceError(`no usable events: ${problems.join('; ')}`);
    if (this.count === 0) this.notes.push('the trace has no events');
    if (this.phase === Phase.Events || this.phase === Phase.RootObject) {
      this.notes.push(`truncated JSON at byte ${this.bufOrigin + this.buf.length} — ${this.count} events read before it`);
    }
    if (this.trailingDataByte >= 0) this.notes.push(`data after the end of the JSON document at byte ${this.trailingDataByte} was ignored`);
  }

  /**
   * `part`: a preview's build, with the whole trace's origin, steps and CUDA-graph launches, and no warnings.
   * Consumes the raw columns: each is given back (memory.ts) as soon as its model column is made, so raw and
   * model columns are never all held at once. The sort's own arrays are plain ones (left to the GC): on Node
   * 20 a resizable buffer's elements are read 1.5–2.5× slower, and the sort is where the build spends.
   */
  private build(part?: Pick<TraceModel, 'steps' | 'stepSource'> & { origin: number; graphLaunches: Set<number> }): TraceModel {
    const n = this.count;
    const absStart = this.start.data;
    const origin = part ? part.origin : n === 0 ? 0 : minimum(absStart, n);
    const warnings = [...this.notes, ...this.problems.messages()];

    const { trackOrder, trackInfos } = this.orderTracks();
    const trackKey = this.track.data; // file-order track ids become the model's, in place
    for (let i = 0; i < n; i++) trackKey[i] = trackOrder[trackKey[i]];
    const rawDur = this.dur.data;
    const { startNs, longestFirst, clamped } = sortKeys(absStart, rawDur, n, origin);
    if (clamped) warnings.push('timestamps span more than 78 hours; order of far-away events is approximate');
    let order = orderByTrackAndStart(trackKey, trackInfos.length, startNs, longestFirst);
    const { depthOf, depthClamped } = nestingDepths(order, trackKey, absStart, rawDur, trackInfos);
    if (depthClamped) warnings.push(`slices nested deeper than ${MAX_DEPTH} levels are drawn at level ${MAX_DEPTH}`);
    // Stable (track, depth) order: one counting sort over (track, depth) buckets.
    const bucketBase = new Uint32Array(trackInfos.length + 1);
    for (let t = 0; t < trackInfos.length; t++) bucketBase[t + 1] = bucketBase[t] + trackInfos[t].maxDepth + 1;
    const bucketOf = new Uint32Array(n);
    for (let i = 0; i < n; i++) bucketOf[i] = bucketBase[trackKey[i]] + depthOf[i];
    order = countingSortRows(order, bucketOf, bucketBase[trackInfos.length]);

    // Each model column in the new order; its raw column is given back before the next is made.
    const start = gatherFloat64(absStart, order, origin);
    this.start.release();
    const dur = gatherFloat64(rawDur, order, 0);
    this.dur.release();
    const correlation = gatherFloat64(this.correlation.data, order, 0);
    this.correlation.release();
    const track = gatherUint32(trackKey, order);
    this.track.release();
    const name = gatherUint32(this.name.data, order);
    this.name.release();
    const kind = new Uint8Array(n);
    const rawKind = this.kind.data;
    for (let k = 0; k < n; k++) kind[k] = rawKind[order[k]];
    this.kind.release();
    const depth = new Uint16Array(n);
    for (let k = 0; k < n; k++) depth[k] = depthOf[order[k]];
    const newIndexOf = new Uint32Array(n);
    for (let k = 0; k < n; k++) newIndexOf[order[k]] = k;
    const model: TraceModel = {
      count: n, start, dur, track, name, kind, depth, correlation,
      names: this.names, tracks: trackInfos, originUs: origin, steps: [], stepSource: 'none',
      kernelArgs: this.remapArgs(newIndexOf),
      warnings,
    };
    this.flows.link(model, trackOrder);
    markGraphReplays(model, part?.graphLaunches);
    if (part) return { ...model, steps: part.steps, stepSource: part.stepSource, warnings: [] };
    return Object.assign(model, findSteps({ ...model, onGpu: (row) => model.tracks[model.track[row]].gpu }));
  }

  /** Tracks ordered CPU threads first, then GPU streams, each by the trace's sort_index metadata. */
  private orderTracks(): { trackOrder: Uint32Array; trackInfos: TrackInfo[] } {
    const sortKeyOf = (t: RawTrack): [number, number, number, string, string] => {
      const process = this.processMeta.get(t.pid);
      const thread = this.threadMeta.get(`${t.pid}\u0000${t.tid}`);
      return [t.gpu ? 1 : 0, process?.sortIndex ?? Number(t.pid), thread?.sortIndex ?? Number(t.tid), t.pid, t.tid];
    };
    const keyed = this.tracks.map((t, raw) => ({ raw, key: sortKeyOf(t) }));
    keyed.sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) {
        const x = a.key[i];
        const y = b.key[i];
        if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
        if (typeof x === 'number' && typeof y === 'number') return Number.isNaN(x) ? 1 : Number.isNaN(y) ? -1 : x - y;
        return String(x) < String(y) ? -1 : 1;
      }
      return 0;
    });
    const trackOrder = new Uint32Array(this.tracks.length);
    const trackInfos = keyed.map(({ raw }, index): TrackInfo => {
      trackOrder[raw] = index;
      const t = this.tracks[raw];
      const process = this.processMeta.get(t.pid);
      const thread = this.threadMeta.get(`${t.pid}\u0000${t.tid}`);
      const processName = process?.labels ?? process?.name ?? `process ${t.pid}`;
      const threadName = (thread?.name ?? `${t.gpu ? 'stream' : 'thread'} ${t.tid}`).trim();
      return { pid: t.pid, tid: t.tid, name: `${processName} · ${threadName}`, gpu: t.gpu, maxDepth: 0 };
    });
    return { trackOrder, trackInfos };
  }

  /** The kernel args table in the model's slice order; gives back the raw args columns. */
  private remapArgs(newIndexOf: Uint32Array): TraceModel['kernelArgs'] {
    const rows = this.argRows;
    const rawSlice = this.argSlice.data;
    const rawValues = this.argValues.data;
    const sliceOfRow = scratchArray(Uint32Array, rows);
    for (let r = 0; r < rows; r++) sliceOfRow[r] = newIndexOf[rawSlice[r]];
    this.argSlice.release();
    // Each slice has at most one args row: order the rows by slice through a slice -> row table.
    const rowOfSlice = scratchArray(Int32Array, newIndexOf.length).fill(-1);
    for (let r = 0; r < rows; r++) rowOfSlice[sliceOfRow[r]] = r;
    const order = scratchArray(Uint32Array, rows);
    for (let k = 0, i = 0; i < rowOfSlice.length; i++) if (rowOfSlice[i] >= 0) order[k++] = rowOfSlice[i];
    release(rowOfSlice);
    const slice = new Uint32Array(rows);
    const values = new Float64Array(rows * ARG_FIELD_COUNT);
    for (let k = 0; k < rows; k++) {
      const r = order[k];
      slice[k] = sliceOfRow[r];
      values.set(rawValues.subarray(r * ARG_FIELD_COUNT, (r + 1) * ARG_FIELD_COUNT), k * ARG_FIELD_COUNT);
    }
    release(sliceOfRow, order);
    this.argValues.release();
    return { slice, values };
  }
}

const PH_COMPLETE = 'X'.charCodeAt(0);
const PH_METADATA = 'M'.charCodeAt(0);
const PH_FLOW_START = 's'.charCodeAt(0);
const PH_FLOW_END = 'f'.charCodeAt(0);
const PH_INSTANT = 'i'.charCodeAt(0);
const PH_INSTANT_OLD = 'I'.charCodeAt(0);

// The build's passes over every row, each in a function of its own: V8 optimises a small function's loop
// within a few thousand iterations, while a loop in build() itself ran unoptimised to the end, boxing every
// float it read (~16 scavenges and a doubled young generation on a 100 MB trace).

/** The smallest of values[0, n). */
function minimum(values: Float64Array, n: number): number {
  let least = Infinity;
  for (let i = 0; i < n; i++) if (values[i] < least) least = values[i];
  return least;
}

/** Nesting depth of each row, from a stack of open slices' end times per track; raises the tracks' maxDepth. */
function nestingDepths(order: Uint32Array, trackKey: Uint32Array, absStart: Float64Array, dur: Float64Array, tracks: TrackInfo[]): { depthOf: Uint16Array; depthClamped: boolean } {
  const depthOf = new Uint16Array(order.length);
  const stack: number[] = [];
  let currentTrack = -1;
  let depthClamped = false;
  for (let k = 0; k < order.length; k++) {
    const row = order[k];
    if (trackKey[row] !== currentTrack) { currentTrack = trackKey[row]; stack.length = 0; }
    const s = absStart[row];
    while (stack.length > 0 && stack[stack.length - 1] <= s) stack.pop();
    if (stack.length > MAX_DEPTH) depthClamped = true;
    const depth = Math.min(stack.length, MAX_DEPTH);
    depthOf[row] = depth;
    const info = tracks[currentTrack];
    if (depth > info.maxDepth) info.maxDepth = depth;
    stack.push(s + dur[row]);
  }
  return { depthOf, depthClamped };
}

/** column[order[k]] - offset for every k. One function per array type, so V8 copies floats without boxing them. */
function gatherFloat64(column: Float64Array, order: Uint32Array, offset: number): Float64Array {
  const out = new Float64Array(order.length);
  for (let k = 0; k < order.length; k++) out[k] = column[order[k]] - offset;
  return out;
}

/** column[order[k]] for every k. */
function gatherUint32(column: Uint32Array, order: Uint32Array): Uint32Array {
  const out = new Uint32Array(order.length);
  for (let k = 0; k < order.length; k++) out[k] = column[order[k]];
  return out;
}

/** Correlation ids of the cudaGraphLaunch calls among these slices (a model's, or a scanner's raw ones). */
function graphLaunchCorrelations(c: Pick<TraceModel, 'count' | 'name' | 'kind' | 'correlation' | 'names'>): Set<number> {
  const graphLaunchName = c.names.indexOf('cudaGraphLaunch');
  const launches = new Set<number>();
  if (graphLaunchName < 0) return launches;
  for (let i = 0; i < c.count; i++) {
    if (c.name[i] === graphLaunchName && c.kind[i] === SliceKind.RuntimeLaunch && c.correlation[i] >= 0) launches.add(c.correlation[i]);
  }
  return launches;
}

/** Kernels whose launch was a cudaGraphLaunch are CUDA-graph replays, whatever library they came from. */
function markGraphReplays(model: TraceModel, replayCorrelations = graphLaunchCorrelations(model)): void {
  if (replayCorrelations.size === 0) return;
  for (let i = 0; i < model.count; i++) {
    const kind = model.kind[i];
    if (kind >= SliceKind.KernelGenerated && kind <= SliceKind.KernelAten && model.tracks[model.track[i]].gpu && replayCorrelations.has(model.correlation[i])) {
      model.kind[i] = SliceKind.GraphReplay;
    }
  }
}

/** What findSteps reads: a model's columns, or a scanner's raw ones with start made relative to the origin. */
interface StepColumns {
  count: number;
  start: Float64Array; dur: Float64Array; kind: Uint8Array; name: Uint32Array; correlation: Float64Array;
  names: string[];
  onGpu(row: number): boolean;
}

/**
 * ProfilerStep# spans when the trace has them; otherwise, when the device kernels' name sequence repeats
 * exactly (N profiled calls of the same model), each repetition becomes a step spanning its launches and kernels.
 */
function findSteps(c: StepColumns): Pick<TraceModel, 'steps' | 'stepSource'> {
  const steps: TraceModel['steps'] = [];
  for (let i = 0; i < c.count; i++) {
    if (c.kind[i] === SliceKind.Step) steps.push({ start: c.start[i], end: c.start[i] + c.dur[i], label: c.names[c.name[i]] });
  }
  if (steps.length > 0) return { steps: steps.sort((a, b) => a.start - b.start), stepSource: 'profiler' };
  // Device kernels in start order (equal starts: row order), in typed arrays given back as soon as done: a
  // profile without ProfilerStep has about one kernel per three slices, too many for JS arrays and Maps.
  const isDeviceKernel = (i: number): boolean => isKernelKind(c.kind[i]) && c.onGpu(i);
  let kernelCount = 0;
  for (let i = 0; i < c.count; i++) if (isDeviceKernel(i)) kernelCount++;
  const kernels = scratchArray(Uint32Array, kernelCount);
  for (let i = 0, k = 0; i < c.count; i++) if (isDeviceKernel(i)) kernels[k++] = i;
  const startNs = scratchArray(Float64Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) startNs[k] = Math.min(Math.round(c.start[kernels[k]] * 1000), 2 ** 48 - 1);
  const byStart = scratchArray(Uint32Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) byStart[k] = k;
  sortRangeNearlySorted(byStart, 0, kernelCount, startNs, startNs); // nearly sorted already; ties by position, i.e. row
  for (let k = 0; k < kernelCount; k++) byStart[k] = kernels[byStart[k]];
  release(startNs, kernels);
  const kernelNames = scratchArray(Uint32Array, kernelCount);
  for (let k = 0; k < kernelCount; k++) kernelNames[k] = c.name[byStart[k]];
  const period = repetitionPeriod(kernelNames);
  release(kernelNames);
  if (period === 0) { release(byStart); return { steps, stepSource: 'none' }; }
  // the last launch (in row order) of each correlation id
  const launchOf = new RowsByKey();
  for (let i = 0; i < c.count; i++) if (c.kind[i] === SliceKind.RuntimeLaunch && c.correlation[i] >= 0) launchOf.set(c.correlation[i], i);
  for (let first = 0; first < kernelCount; first += period) {
    let start = Infinity;
    let end = -Infinity;
    for (let k = first; k < first + period; k++) {
      const i = byStart[k];
      const launch = launchOf.get(c.correlation[i]);
      start = Math.min(start, c.start[i], launch >= 0 ? c.start[launch] : Infinity);
      end = Math.max(end, c.start[i] + c.dur[i]);
    }
    steps.push({ start, end, label: `call ${first / period + 1}` });
  }
  release(byStart);
  launchOf.release();
  return { steps, stepSource: 'repetition' };
}

/** Smallest p such that the sequence is ≥ 2 exact repetitions of its first p items; 0 when none. */
function repetitionPeriod(sequence: Uint32Array): number {
  const n = sequence.length;
  for (let p = 1; p <= n / 2; p++) {
    if (n % p !== 0) continue;
    let repeats = true;
    for (let i = p; i < n && repeats; i++) repeats = sequence[i] === sequence[i - p];
    if (repeats) return p;
  }
  return 0;
}

/** EventKey of the key bytes buf[start, end), or -1: dispatch on length and first bytes (hot: every key of every event). */
function eventKeyOf(buf: Uint8Array, start: number, end: number): number {
  const a = buf[start];
  switch (end - start) {
    case 2: {
      const b = buf[start + 1];
      if (a === KEY_P && b === KEY_H) return EventKey.Ph;
      if (a === KEY_T && b === KEY_S) return EventKey.Ts;
      if (a === KEY_I && b === KEY_D) return EventKey.Id;
      return -1;
    }
    case 3:
      if (a === KEY_C) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Cat]) ? EventKey.Cat : -1;
      if (a === KEY_P) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Pid]) ? EventKey.Pid : -1;
      if (a === KEY_T) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Tid]) ? EventKey.Tid : -1;
      if (a === KEY_D) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Dur]) ? EventKey.Dur : -1;
      return -1;
    case 4:
      if (a === KEY_N) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Name]) ? EventKey.Name : -1;
      if (a === KEY_A) return bytesEqual(buf, start, end, EVENT_KEYS[EventKey.Args]) ? EventKey.Args : -1;
      return -1;
    default:
      return -1;
  }
}

function matchCat(buf: Uint8Array, start: number, end: number): Cat {
  const k = matchKeyByLength(buf, start, end, CAT_BYTES, CAT_BYTES_BY_LENGTH);
  return k < 0 ? Cat.Unknown : CAT_KEYS[k].cat;
}

/** Scans a whole trace held in memory. */
export function scanTraceBytes(bytes: Uint8Array): TraceModel {
  const scanner = new TraceScanner();
  scanner.push(bytes);
  return scanner.finish();
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * A trace file read into raw columns, not yet built into its model: a big trace's first view can be shown
 * from preview() (~0.1 s) before model() sorts and nests every slice (~0.7 s at 500 MB) and it is sent.
 */
export class TraceReading {
  private scanner: TraceScanner | null;
  private built: TraceModel | null = null;

  constructor(scanner: TraceScanner) {
    this.scanner = scanner;
  }

  /** Slices in the trace. */
  get events(): number {
    return this.built?.count ?? this.scanner!.eventCount;
  }

  /** The slices around `view` (window.ts), or null when the trace has no steps to say where the view opens. */
  preview(view: FirstView | null): TraceModel | null {
    if (!this.built) return this.scanner!.preview(view);
    const window = viewWindow(this.built.steps, view);
    return window && sliceWindow(this.built, ...window);
  }

  /** The full model, built once; the raw columns are released after. */
  model(): TraceModel {
    if (!this.built) {
      this.built = this.scanner!.model();
      this.scanner = null;
    }
    return this.built;
  }
}

/** Reads a whole trace file; throws TraceError when nothing usable is in it. */
export async function scanTraceFile(path: string): Promise<TraceModel> {
  return (await readTraceFile(path)).model();
}

/** Reads a trace file into raw columns; throws TraceError when nothing usable is in it. */
export async function readTraceFile(path: string): Promise<TraceReading> {
  const scanner = await readWhole(path);
  scanner.end();
  return new TraceReading(scanner);
}

/** Streams a trace file (plain or gzip, told apart by its magic bytes) through a scanner, not yet ended. */
async function readWhole(path: string): Promise<TraceScanner> {
  let gzip: boolean;
  try {
    const file = await open(path, 'r');
    try {
      const head = new Uint8Array(2);
      const { bytesRead } = await file.read(head, 0, 2, 0);
      gzip = bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
    } finally {
      await file.close();
    }
  } catch (error) {
    throw new TraceError(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (!gzip) {
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
const PARALLEL_MIN_BYTES = 160 * 1024 * 1024;
/**
 * Where the second half starts, as a fraction of the file. The worker starts later (thread + module load) and
 * its state is copied back, but 0.55 measured slower than 0.5 in bench/scan.ts (500 MB: 2.91 vs 2.84 s).
 */
const SPLIT_AT = 0.5;
/** How far past SPLIT_AT a split point (the start of an event) is looked for. */
const SPLIT_SEARCH_BYTES = 4 * 1024 * 1024;

/**
 * Pushes bytes [from, to) of a plain file through the scanner, read into one reused buffer (no garbage per
 * chunk: fresh chunks made V8 run a full GC every few).
 */
async function readRange(path: string, scanner: TraceScanner, from: number, to: number): Promise<void> {
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
async function findSplit(path: string, size: number): Promise<{ split: number; bareArray: boolean } | null> {
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
 * The second half runs in scanWorker: bundled as dist/scanWorker.js beside dist/cli.js and dist/extension.js,
 * or scanWorker.ts next to this file when run from sources (tests, benches; tsx's --import hooks do not reach a
 * worker on Node 20, so its CommonJS hook is registered there).
 */
function startHalfWorker(job: HalfJob): Worker {
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

