// What a slice's label is drawn on: what SliceRects fills and outlines in one pixel column of its row, in the order it
// paints them. A folded Python stack draws all its levels in one row, so a frame's label there lies on the frames
// around it too: a frame dimmed as the profiler's own work, drawn faint over an opaque frame around it, is that
// frame's colour, not the page's (review 14T T7: its label was chosen for the faint fill, light grey on slice blue at
// 1.9:1). In high contrast a rect is outlined (a folded row's outer frames only: SliceRects), and a side in a label's
// column is painted there: the column left of "anchors.py line 191, module level" was part outline, part slice blue,
// where no paint said so.
import type { Paint } from './frameLayout.ts';

/** One colour's rects in a row as SliceRects fills them with one path: their paint and canvas x spans, and the spans
 *  of those it outlines in high contrast. */
export interface FillLayer {
  paint: Paint;
  spans: readonly (readonly [number, number])[];
  outlined: readonly (readonly [number, number])[];
}

/** How much of the pixel column [px, px + 1) the spans cover together (one path: overlaps count once). */
function coverage(spans: readonly (readonly [number, number])[], px: number): number {
  const clipped = spans
    .map(([x0, x1]) => [Math.max(x0, px), Math.min(x1, px + 1)] as const)
    .filter(([x0, x1]) => x1 > x0)
    .sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reached = px;
  for (const [x0, x1] of clipped) {
    covered += Math.max(0, x1 - Math.max(x0, reached));
    reached = Math.max(reached, x1);
  }
  return covered;
}

/** The pixel column a rect's side at canvas x is outlined on, in high contrast (SliceRects.fill). */
export const outlineColumn = (x: number): number => Math.floor(x);

/**
 * The paints over the pixel column [px, px + 1) (px whole), bottom first, the page left out: per layer in fill
 * order, its colour where its rects cover the column (at its alpha times the part covered: the canvas blends that
 * much), then, where `outline` is a colour (high contrast), the outline where one of its outlined rects' sides lies on it.
 */
export function slicePaints(layers: readonly FillLayer[], px: number, outline: string | null): Paint[] {
  return layers.flatMap(({ paint, spans, outlined: outlinedSpans }) => {
    const filled = coverage(spans, px);
    const outlined = outlinedSpans.some((span) => span.some((x) => outlineColumn(x) === px));
    return [
      ...(filled > 0 ? [{ colour: paint.colour, alpha: paint.alpha * filled }] : []),
      ...(outline !== null && outlined ? [{ colour: outline, alpha: paint.alpha }] : []),
    ];
  });
}
