// Colour arithmetic for text on the timeline's canvas: compositing (as the canvas paints) and WCAG 2 contrast.

/** sRGB channels 0–255 and alpha 0–1. */
export type Rgba = readonly [number, number, number, number];

/** `top` painted over the opaque colour `under`. */
export function over(top: Rgba, under: Rgba): Rgba {
  const a = top[3];
  return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1];
}

/** WCAG 2 relative luminance of an opaque colour. */
export function luminance(c: Rgba): number {
  const [r, g, b] = [c[0], c[1], c[2]].map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two opaque colours, 1 to 21. */
export function contrast(a: Rgba, b: Rgba): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** WCAG 2's minimum for text (AA). */
export const READABLE = 4.5;
const BLACK = '#000000';
const WHITE = '#ffffff';

let pixel: OffscreenCanvasRenderingContext2D | null = null;
/** colours and inks are asked for in every frame: kept, up to this many each */
const MAX_KEPT = 4096;
const parsed = new Map<string, Rgba>();
const inks = new Map<string, string>();

/** A CSS colour as the canvas paints it (any syntax the page's CSS has: hex, rgb(), color-mix() …). */
export function rgbaOf(css: string): Rgba {
  let rgba = parsed.get(css);
  if (!rgba) {
    pixel ??= new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true });
    if (!pixel) throw new Error('no 2d canvas');
    pixel.clearRect(0, 0, 1, 1);
    pixel.fillStyle = css;
    pixel.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = pixel.getImageData(0, 0, 1, 1).data;
    rgba = [r!, g!, b!, a! / 255];
    if (parsed.size > MAX_KEPT) parsed.clear();
    parsed.set(css, rgba);
  }
  return rgba;
}

/** What the paints make, the first (the page) laid on black as an opaque page would be. */
export function composite(paints: readonly { colour: string; alpha: number }[]): Rgba {
  return paints.reduce<Rgba>(
    (under, { colour, alpha }) => {
      const c = rgbaOf(colour);
      return over([c[0], c[1], c[2], c[3] * alpha], under);
    },
    [0, 0, 0, 1],
  );
}

/**
 * The ink for text on `under`: the first of `candidates` (the theme's own colours, in the order the text prefers
 * them) that reads at 4.5:1; else black or white, whichever reads better (one of them always clears 4.5:1).
 */
export function readableInk(under: Rgba, candidates: readonly string[]): string {
  const key = `${under.join()}|${candidates.join('|')}`;
  let ink = inks.get(key);
  if (!ink) {
    ink = candidates.find((css) => contrast(over(rgbaOf(css), under), under) >= READABLE);
    ink ??= contrast(rgbaOf(BLACK), under) >= contrast(rgbaOf(WHITE), under) ? BLACK : WHITE;
    if (inks.size > MAX_KEPT) inks.clear();
    inks.set(key, ink);
  }
  return ink;
}

/** How far a slice's fill leaves black or white text from it, at the least: an 11 px label's glyphs are thin, their
 *  edges blend into the fill, and white on the dark theme's mid-grey (4.6:1 as painted) read at 3.5:1 (review 8B
 *  B11). */
export const LABEL_FILL = 6;

/**
 * A slice's fill as the canvas paints it: `colour` (over the opaque `page`) where black or white text reads on it at
 * LABEL_FILL; else moved, the least it must be, toward black where white reads the better on it (toward white where
 * black does), as an opaque rgb(): a mid-grey or mid-magenta, where neither reads well.
 */
export function labelledFill(colour: string, page: string): string {
  const painted = over(rgbaOf(colour), rgbaOf(page));
  const onWhite = contrast(rgbaOf(WHITE), painted);
  const onBlack = contrast(rgbaOf(BLACK), painted);
  if (Math.max(onWhite, onBlack) >= LABEL_FILL) return colour;
  const toward = onWhite >= onBlack ? 0 : 255;
  const ink = rgbaOf(onWhite >= onBlack ? WHITE : BLACK);
  for (let t = 0.02; t < 1; t += 0.02) {
    const mix = (k: number): number => Math.round(painted[k]! * (1 - t) + toward * t);
    const mixed: Rgba = [mix(0), mix(1), mix(2), 1];
    if (contrast(ink, mixed) >= LABEL_FILL) return `rgb(${mixed[0]}, ${mixed[1]}, ${mixed[2]})`;
  }
  return toward ? WHITE : BLACK;
}

/** How far a band laid over the page stands out from it, at the least (WCAG 2 contrast of the band against the page):
 *  a graph break's band at 0.12 alpha was dark olive on high contrast's black, 1.2:1, and read as nothing. */
export const BAND_VISIBLE = 1.3;

/** WCAG 2's minimum for a graphic's boundary against what is beside it (non-text contrast). */
export const BOUNDARY_VISIBLE = 3;

/** `colour` where it stands out from the opaque `page` at 3:1, else `fallback` (the theme's text colour). */
export function boundaryColour(colour: string, page: string, fallback: string): string {
  return contrast(over(rgbaOf(colour), rgbaOf(page)), rgbaOf(page)) >= BOUNDARY_VISIBLE ? colour : fallback;
}

/** The least alpha, from `least`, at which `colour` laid over the opaque `page` reaches BAND_VISIBLE against it. */
export function visibleAlpha(colour: Rgba, page: Rgba, least: number): number {
  for (let alpha = least; alpha < 0.6; alpha += 0.02)
    if (contrast(over([colour[0], colour[1], colour[2], alpha], page), page) >= BAND_VISIBLE) return alpha;
  return 0.6;
}
