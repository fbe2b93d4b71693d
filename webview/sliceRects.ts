// A pane's slices as one frame fills them, with level of detail. Rows of the model are ordered by (track, depth,
// start), so each (track, depth) row is a contiguous, start-sorted, non-overlapping run: visible slices are found by
// binary search, and slices narrower than a pixel are merged by jumping straight to the first slice that starts in the
// next pixel. A frame therefore costs O(rows × pixels × log n), not O(events). The rects are kept per colour and
// filled with one path each.
import { SliceKind, SLICE_KIND_COUNT, type TraceModel } from '../extension/shared/trace/model.ts';
import type { Paint } from './frameLayout.ts';
import { outlineColumn, slicePaints, type FillLayer } from './slicePaints.ts';
import type { Theme } from './theme.ts';
import { firstVisible, lowerBoundStart, ROW_HEIGHT, type Row } from './timelineRows.ts';

/** a slice this wide may be labelled, a bar of its own: a short whole word fits it ("mm" in 22 px, review 15W W5: a
 *  39-px "mm" left blank; a rank's collective, "last" in rank 1's 28-px all_reduce, W1), and timelineText.sliceLabel
 *  says none where no whole word does */
const MIN_LABEL_PX = 20;
/** slices narrower than this are merged with whatever starts in the same pixel */
const MERGE_PX = 2;
/** gaps narrower than this between same-coloured rects are closed (invisible at this zoom anyway) */
const GAP_PX = 1.5;
/** colour buckets: one per SliceKind, then collective communication (told by name, over the slice's kind) */
const COMMUNICATION_BUCKET = SLICE_KIND_COUNT;
const COLOURS = SLICE_KIND_COUNT + 1;
/** dimmed slices (not matching the search) are drawn in a second bucket per colour */
const DIM_OFFSET = COLOURS;
export const DIM_ALPHA = 0.2;
/** a rect's numbers in its bucket: x, y, width, and 1 where high contrast outlines it */
const RECT_FIELDS = 4;

/** Where a frame draws slices: the model's time span drawn, its canvas x span, and time to x and back. */
export interface RectView {
  tMin: number;
  tMax: number;
  left: number;
  right: number;
  toX: (t: number) => number;
  toT: (x: number) => number;
}

/** What a frame's rects counted, and the slices wide enough for a label of their own: those of unfolded rows, and
 *  those a folded stack's row may label (pickFoldedLabels says which, by where they lie). */
export interface LaidOutRects {
  rects: number;
  slices: number;
  rows: number;
  labels: number[];
  foldedLabels: FoldedLabel[];
}

/** A slice of a folded stack's row wide enough for a label, its canvas x span. */
export interface FoldedLabel {
  i: number;
  x0: number;
  x1: number;
}

/**
 * The labels a folded stack's row draws, where its levels lie over each other: a frame's, unless a frame around it
 * (shallower, on its track) keeps the room its whole words take there, whether or not they fit yet. So a wider panel
 * only adds labels, never trades one for another: the rule asks which frames lie over which, not whose words fit
 * (review 14 T6: 560 px said "Inductor's compiled graph", 700 px "torch.mm" in its place; review 13 Q5: a deeper
 * frame cut to "Indu…" took its outer frame's label). `said`: a slice's label's width (px, from 3 px into the
 * slice), null where none fits, and its whole words' width.
 */
export function pickFoldedLabels(
  model: Pick<TraceModel, 'track' | 'depth'>,
  candidates: readonly FoldedLabel[],
  said: (label: FoldedLabel) => { width: number | null; wholeWidth: number },
): number[] {
  const kept = candidates.map((c) => {
    const { width, wholeWidth } = said(c);
    return { ...c, width, keeps: c.x0 + 3 + Math.min(wholeWidth, c.x1 - c.x0 - 6) };
  });
  type Kept = (typeof kept)[number];
  const keptFrom = (b: Kept, a: Kept): boolean =>
    model.track[a.i] === model.track[b.i] && model.depth[b.i]! < model.depth[a.i]! && b.x0 < a.x1 && a.x0 < b.keeps;
  return kept.filter((a) => a.width !== null && !kept.some((b) => keptFrom(b, a))).map((label) => label.i);
}

export class SliceRects {
  private readonly buckets: Float64Array[] = [];
  private readonly counts = new Uint32Array(COLOURS * 2);

  /** `communication`: per name id, 1 for a collective; `dimmed`: slice i drawn faint (timeline.ts says when) */
  constructor(
    private readonly model: TraceModel,
    private readonly communication: Uint8Array,
    private readonly dimmed: (i: number) => boolean,
  ) {
    for (let k = 0; k < COLOURS * 2; k++) this.buckets.push(new Float64Array(RECT_FIELDS * 1024));
  }

  /** The rows' slices in the view as rects, merged per pixel and per colour run, ready to fill. */
  layOut(rows: readonly Row[], view: RectView): LaidOutRects {
    const model = this.model;
    const { tMin, tMax, left, right, toX, toT } = view;
    const start = model.start;
    const dur = model.dur;
    const stats = { rects: 0, slices: 0, rows: 0 };
    this.counts.fill(0);
    const labels: number[] = [];
    /** labels a folded stack may draw: one frame at a place (pickFoldedLabels) */
    const foldedLabels: FoldedLabel[] = [];

    for (const row of rows) {
      if (row.first === row.end) continue;
      stats.rows++;
      let i = firstVisible(model, row, tMin);
      // run-length state: adjacent rects of one bucket merge into one
      let runBucket = -1;
      let runX0 = 0;
      let runX1 = 0;
      /** the run is a labelled slice: drawn as its own bar */
      let runLabelled = false;
      const flush = (): void => {
        if (runBucket >= 0) {
          this.push(runBucket, runX0, row.y, runX1 - runX0, outlined);
          stats.rects++;
        }
      };
      // a folded stack's row outlines only its outer frames (depth 0): the frames folded into them lie under their
      // labels, and their sides striped "anchors.py line 191, module level" in high contrast (review 15W W2); every
      // frame folded into one lies inside it, so no outline crosses a label there
      const outlined = !row.folded || row.depth === 0;
      const rowEnd = row.end;
      while (i < rowEnd && start[i]! <= tMax) {
        const x0 = Math.max(left, toX(start[i]!));
        let x1 = Math.min(right, toX(start[i]! + dur[i]!));
        let next = i + 1;
        if (x1 - x0 < MERGE_PX) {
          // Near-sub-pixel: everything that starts inside this pixel becomes one rect. Galloping search:
          // the next pixel's first slice is usually close, so this costs O(log distance), not O(log n).
          const pixelEnd = toT(Math.floor(x0) + 1);
          if (next < rowEnd && start[next]! < pixelEnd) {
            let step = 1;
            let lo = next;
            let hi = next + 1;
            while (hi < rowEnd && start[hi]! < pixelEnd) {
              lo = hi;
              step *= 2;
              hi = lo + step;
            }
            next = lowerBoundStart(model, lo + 1, Math.min(hi, rowEnd), pixelEnd);
            // a wide slice begun in this pixel (only the last one can be: slices of a row do not overlap) is drawn
            // and labelled on its own, not swallowed (review 6A H4)
            if (next - 1 > i && toX(start[next - 1]! + dur[next - 1]!) - toX(start[next - 1]!) >= MERGE_PX) next--;
          }
          x1 = Math.max(Math.floor(x0) + 1, Math.min(right, toX(start[next - 1]! + dur[next - 1]!)));
        }
        const labelled = next === i + 1 && x1 - x0 >= MIN_LABEL_PX;
        if (labelled && model.kind[i] !== SliceKind.Step) {
          // (a profiler step's slice is the step the axis's ruler names: said once, there)
          if (row.folded) foldedLabels.push({ i, x0, x1 });
          else labels.push(i);
        }
        stats.slices += next - i;
        const bucket =
          (this.communication[model.name[i]!] ? COMMUNICATION_BUCKET : model.kind[i]!) +
          (this.dimmed(i) ? DIM_OFFSET : 0);
        const runFrom = next > i + 1 ? Math.floor(x0) : x0;
        if (bucket === runBucket && runFrom <= runX1 + GAP_PX && !labelled && !runLabelled) runX1 = Math.max(runX1, x1);
        else {
          // a labelled slice is a bar of its own, 1 px clear of the one before it in its colour: "aten::linear" and
          // "aten::gelu" side by side read as one slice when merged (review 6A H1)
          if (bucket === runBucket && runFrom <= runX1 + GAP_PX)
            runX1 = Math.max(runX0 + 1, Math.min(runX1, runFrom - 1));
          flush();
          runBucket = bucket;
          runX0 = runFrom;
          runX1 = x1;
          runLabelled = labelled;
        }
        i = next;
      }
      flush();
    }
    return { ...stats, labels, foldedLabels };
  }

  private push(bucket: number, x: number, y: number, w: number, outlined: boolean): void {
    let buffer = this.buckets[bucket]!;
    const at = this.counts[bucket]! * RECT_FIELDS;
    if (at + RECT_FIELDS > buffer.length) {
      const grown = new Float64Array(buffer.length * 2);
      grown.set(buffer);
      this.buckets[bucket] = buffer = grown;
    }
    buffer[at] = x;
    buffer[at + 1] = y;
    buffer[at + 2] = w;
    buffer[at + 3] = outlined ? 1 : 0;
    this.counts[bucket]!++;
  }

  /** A bucket's fill: its kind's colour (a collective's), faint for the dimmed buckets. */
  private paintOf(bucket: number, theme: Theme): Paint {
    const colour = bucket % COLOURS;
    return {
      colour: colour === COMMUNICATION_BUCKET ? theme.communication : theme.kind[colour]!, // readTheme has one per kind
      alpha: bucket >= DIM_OFFSET ? DIM_ALPHA : 1,
    };
  }

  /** What fill() paints over the pixel column [px, px + 1) at height y of the last layOut's rows (slicePaints). */
  paintsAt(px: number, y: number, theme: Theme): Paint[] {
    const layers: FillLayer[] = [];
    for (let bucket = 0; bucket < COLOURS * 2; bucket++) {
      const buffer = this.buckets[bucket]!;
      const spans: [number, number][] = [];
      const outlined: [number, number][] = [];
      for (let r = 0; r < this.counts[bucket]!; r++) {
        const at = r * RECT_FIELDS;
        const [x, top, w] = [buffer[at]!, buffer[at + 1]!, buffer[at + 2]!];
        if (top <= y && y < top + ROW_HEIGHT - 1) {
          spans.push([x, x + w]);
          if (buffer[at + 3]) outlined.push([x, x + w]);
        }
      }
      if (spans.length) layers.push({ paint: this.paintOf(bucket, theme), spans, outlined });
    }
    return slicePaints(layers, px, theme.border);
  }

  /** One path and one fill per colour: far cheaper than a fillStyle change per slice. */
  fill(ctx: CanvasRenderingContext2D, theme: Theme): void {
    for (let bucket = 0; bucket < COLOURS * 2; bucket++) {
      const n = this.counts[bucket]!;
      if (n === 0) continue;
      const buffer = this.buckets[bucket]!;
      const { colour, alpha } = this.paintOf(bucket, theme);
      ctx.globalAlpha = alpha;
      ctx.fillStyle = colour;
      ctx.beginPath();
      for (let r = 0; r < n; r++) {
        const at = r * RECT_FIELDS;
        ctx.rect(buffer[at]!, buffer[at + 1]!, buffer[at + 2]!, ROW_HEIGHT - 1);
      }
      ctx.fill();
      if (theme.border) {
        // each side on a whole pixel column: crisp, and so what a label lies on is known (slicePaints)
        ctx.beginPath();
        for (let r = 0; r < n; r++) {
          const at = r * RECT_FIELDS;
          if (!buffer[at + 3]) continue;
          const [x0, x1] = [buffer[at]!, buffer[at]! + buffer[at + 2]!].map((x) => outlineColumn(x) + 0.5);
          ctx.rect(x0!, buffer[at + 1]!, x1! - x0!, ROW_HEIGHT - 1);
        }
        ctx.strokeStyle = theme.border;
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
  }
}
