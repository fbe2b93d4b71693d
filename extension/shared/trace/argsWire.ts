// A trace's kernel args table on its way to the webview, packed: as 15 plain numbers a kernel it was most of what
// the last message of a big trace carried. Per field the values are launch facts that repeat (grid, block,
// registers: a handful of distinct values) or ids that climb (External id), so a field of whole numbers goes as
// steps from the value before, one of a few distinct values as indices into them, and anything else plain.
import { cutBytes, joinBytes } from './byteRuns.ts';
import { KERNEL_ARG_FIELDS, type KernelArgsTable } from './model.ts';
import { MAX_MAGNITUDE, unzigzag, VarintReader, VarintWriter, zigzag } from './varints.ts';

/**
 * One field of every row: `steps`: 0 for no value (NaN), else 1 + the zigzag step from the last value;
 * `index`: varints into `table`; `plain`: the values.
 */
export type PackedField = { steps: Uint8Array } | { table: Float64Array; index: Uint8Array } | { plain: Float64Array };

export interface PackedKernelArgs {
  rows: number;
  /** each row's slice: the zigzag step from the row before's (ascending: small), varints */
  slice: Uint8Array;
  /** per field of KERNEL_ARG_FIELDS */
  fields: PackedField[];
}

const FIELDS = KERNEL_ARG_FIELDS.length;
/** A field with more distinct values than this (of values not all whole) goes plain. */
const MAX_TABLE = 256;

export function packKernelArgs(args: KernelArgsTable): PackedKernelArgs {
  const rows = args.slice.length;
  const slice = new VarintWriter(rows);
  for (let r = 0; r < rows; r++) slice.signed(args.slice[r]! - (r > 0 ? args.slice[r - 1]! : 0));
  const fields: PackedField[] = [];
  for (let f = 0; f < FIELDS; f++) fields.push(packField(args.values, rows, f));
  return { rows, slice: slice.bytes(), fields };
}

export function unpackKernelArgs(packed: PackedKernelArgs): KernelArgsTable {
  const { rows } = packed;
  const slice = new Uint32Array(rows);
  const reader = new VarintReader(packed.slice);
  for (let r = 0, at = 0; r < rows; r++) {
    at += reader.signed();
    slice[r] = at;
  }
  const values = new Float64Array(rows * FIELDS);
  packed.fields.forEach((field, f) => unpackField(field, values, rows, f));
  return { slice, values };
}

/**
 * Packed kernel args as one run of bytes (to be deflated whole): the slice column, then each field's arrays in
 * PackedField's order; `lengths` their byte lengths, `shapes` which form each field took.
 */
export interface ArgsInBytes {
  rows: number;
  bytes: Uint8Array;
  lengths: number[];
  shapes: ('steps' | 'table' | 'plain')[];
}

/** Packed kernel args deflated (node/trace/deflatedPieces.ts) for a webview across a network link, as rowsWire.ts DeflatedRows. */
export type DeflatedKernelArgs = Omit<ArgsInBytes, 'bytes'> & { deflated: Uint8Array };

const fieldArrays = (field: PackedField): (Uint8Array | Float64Array)[] =>
  'plain' in field ? [field.plain] : 'table' in field ? [field.table, field.index] : [field.steps];

export function bytesOfArgs(args: PackedKernelArgs): ArgsInBytes {
  const { bytes, lengths } = joinBytes([args.slice, ...args.fields.flatMap(fieldArrays)]);
  const shapes = args.fields.map((field): ArgsInBytes['shapes'][number] =>
    'plain' in field ? 'plain' : 'table' in field ? 'table' : 'steps',
  );
  return { rows: args.rows, bytes, lengths, shapes };
}

/** The packed args bytesOfArgs() put in one run of bytes (copied out); throws where the lengths do not fit. */
export function argsOfBytes({ rows, bytes, lengths, shapes }: ArgsInBytes): PackedKernelArgs {
  const arrays = 1 + shapes.reduce((n, shape) => n + (shape === 'table' ? 2 : 1), 0);
  const next = shapes.length === FIELDS ? cutBytes(bytes, lengths, arrays) : null;
  if (!next) throw new Error('packed kernel args: the bytes do not hold the fields said');
  const slice = next();
  const fields = shapes.map((shape): PackedField => {
    if (shape === 'plain') return { plain: new Float64Array(next().buffer) };
    if (shape === 'table') return { table: new Float64Array(next().buffer), index: next() };
    return { steps: next() };
  });
  return { rows, slice, fields };
}

function packField(values: Float64Array, rows: number, f: number): PackedField {
  return (
    packSteps(values, rows, f) ??
    packTable(values, rows, f) ?? { plain: Float64Array.from({ length: rows }, (_, r) => values[r * FIELDS + f]!) }
  );
}

function packSteps(values: Float64Array, rows: number, f: number): PackedField | null {
  const out = new VarintWriter(rows);
  let last = 0;
  for (let r = 0; r < rows; r++) {
    const v = values[r * FIELDS + f]!;
    if (Number.isNaN(v)) {
      out.unsigned(0);
      continue;
    }
    if (!Number.isInteger(v) || Math.abs(v) > MAX_MAGNITUDE || Object.is(v, -0)) return null;
    out.unsigned(1 + zigzag(v - last));
    last = v;
  }
  return { steps: out.bytes() };
}

function packTable(values: Float64Array, rows: number, f: number): PackedField | null {
  const table: number[] = [];
  const indexOf = new Map<number, number>();
  const out = new VarintWriter(rows);
  for (let r = 0; r < rows; r++) {
    const v = values[r * FIELDS + f]!;
    let index = indexOf.get(v);
    if (index === undefined) {
      if (table.length === MAX_TABLE) return null;
      index = table.push(v) - 1;
      indexOf.set(v, index);
    }
    if (!Object.is(table[index], v)) return null; // -0 and 0 share a Map key
    out.unsigned(index);
  }
  return { table: Float64Array.from(table), index: out.bytes() };
}

function unpackField(field: PackedField, values: Float64Array, rows: number, f: number): void {
  if ('plain' in field) {
    for (let r = 0; r < rows; r++) values[r * FIELDS + f] = field.plain[r]!;
  } else if ('table' in field) {
    const reader = new VarintReader(field.index);
    for (let r = 0; r < rows; r++) values[r * FIELDS + f] = field.table[reader.unsigned()]!;
  } else {
    const reader = new VarintReader(field.steps);
    let last = 0;
    for (let r = 0; r < rows; r++) {
      const code = reader.unsigned();
      if (code === 0) {
        values[r * FIELDS + f] = NaN;
        continue;
      }
      last += unzigzag(code - 1);
      values[r * FIELDS + f] = last;
    }
  }
}
