// Paints a laid-out frame (frameLayout.ts: texts and lines already placed clear of each other) on a 2D canvas.
import type { LineSegment, TextBox } from './frameLayout.ts';
import type { Theme } from './theme.ts';

/** step lines are faint: the slices stay the eye's first read */
const STEP_LINE_ALPHA = 0.6;

export function drawText(ctx: CanvasRenderingContext2D, text: TextBox): void {
  ctx.globalAlpha = text.ink.alpha;
  ctx.fillStyle = text.ink.colour;
  ctx.fillText(text.text, text.x, text.middle);
  ctx.globalAlpha = 1;
}

/** Step lines faint, tick lines whole, both in the muted colour; then a step line's splits in the page's. */
export function drawLines(ctx: CanvasRenderingContext2D, lines: readonly LineSegment[], theme: Theme): void {
  ctx.fillStyle = theme.muted;
  for (const role of ['step', 'tick'] as const) {
    ctx.globalAlpha = role === 'step' ? STEP_LINE_ALPHA : 1;
    ctx.beginPath();
    for (const l of lines) if (l.role === role) ctx.rect(l.x, l.y0, l.w, l.y1 - l.y0);
    ctx.fill();
  }
  ctx.globalAlpha = 1;
  for (const l of lines)
    if (l.role === 'band') {
      ctx.fillStyle = l.colour!;
      ctx.fillRect(l.x, l.y0, l.w, l.y1 - l.y0);
    }
  ctx.fillStyle = theme.background;
  for (const l of lines) if (l.role === 'split') ctx.fillRect(l.x, l.y0, l.w, l.y1 - l.y0);
}
