// A trace read into raw columns and not yet built into its model (node/trace/scanner.ts reads files into one).
import { buildModel, buildModelInParts, finishBuild, previewModel } from './buildModel.ts';
import type { TraceModel } from '../../shared/trace/model.ts';
import type { RawTrace } from './rawTrace.ts';
import { withoutPhaseTwins } from './phaseTwins.ts';
import { partsOf, postedPieces, type PackedPiece, type PostedPiece } from './postedPieces.ts';
import { sliceWindow, viewWindow, type FirstView } from '../../shared/trace/window.ts';

/** A trace file being read for a timeline: its slice count, the slices around a first view, then the whole model. */
export interface TraceReader {
  /** the trace file's events (its slices: the model's count, and each compile phase's inner twin: phaseTwins.ts) */
  readonly events: number;
  /** The slices around `view` (window.ts), or null when the trace has no steps to say where the view opens. */
  preview(view: FirstView | null): TraceModel | null | Promise<TraceModel | null>;
  /** The full model. */
  model(): TraceModel | Promise<TraceModel>;
  /**
   * The full model as posted to the webview (postedPieces.ts), its rows in parts of `rowsPerPart`: the first time,
   * each part as soon as the build has made its rows, so one is on its way while the next is made. `deflate`: a
   * worker deflates the rows and kernel args it makes (a webview across a network link); those made on the
   * extension host's thread (small and gzip traces, a model moved there) go packed only, not to hold that thread.
   */
  posted(rowsPerPart: number, deflate?: boolean): Iterable<PostedPiece> | AsyncIterable<PostedPiece>;
}

/**
 * A trace file read into raw columns, not yet built into its model: a big trace's first view can be shown
 * from preview() (~0.1 s) before model() sorts and nests every slice (~0.7 s at 500 MB) and it is sent.
 */
export class TraceReading implements TraceReader {
  private raw: RawTrace | null;
  private built: TraceModel | null = null;
  private readonly read: number;

  /**
   * `inParts`: posted() builds the model part by part (see there), for a reading whose requests are answered one
   * at a time, each to its end (a worker's); elsewhere a posting awaited piece by piece could be asked for a preview
   * between two pieces, with the raw columns half consumed.
   */
  constructor(
    raw: RawTrace,
    private readonly inParts = false,
  ) {
    this.read = raw.count;
    // each compile phase once (phaseTwins.ts), folded here on the whole trace and nowhere after: the slices
    // previewed (a window of these rows) and posted are the model's
    this.raw = withoutPhaseTwins(raw);
  }

  /** Events in the trace file. */
  get events(): number {
    return this.read;
  }

  /** The slices around `view` (window.ts), or null when the trace has no steps to say where the view opens. */
  preview(view: FirstView | null): TraceModel | null {
    return this.built ? previewOfModel(this.built, view) : previewModel(this.raw!, view);
  }

  /** The full model, built once; the raw columns are released after. */
  model(): TraceModel {
    if (!this.built) {
      this.built = buildModel(this.raw!);
      this.raw = null;
    }
    return this.built;
  }

  /** The model as posted: built whole first (model()), or, `inParts` and not built yet, each piece as soon as the build has made its rows. */
  *posted(rowsPerPart: number): Generator<PackedPiece> {
    if (this.built || !this.inParts) {
      const model = this.model();
      yield* postedPieces(partsOf(model, rowsPerPart), model.count);
      return;
    }
    const { count } = this.raw!;
    const building = buildModelInParts(this.raw!, rowsPerPart);
    this.raw = null;
    try {
      this.built = yield* postedPieces(building, count);
    } finally {
      this.built ??= finishBuild(building); // stopped early: the raw columns are partly given back, so the build goes on
    }
  }
}

/** The slices of a built model around `view` (window.ts), or null when it has no steps to say where the view opens. */
export function previewOfModel(model: TraceModel, view: FirstView | null): TraceModel | null {
  const window = viewWindow(model.steps, view);
  return window && sliceWindow(model, ...window);
}
