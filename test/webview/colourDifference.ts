// How different two colours look: CIEDE2000 ΔE between sRGB colours (CIE 2000, as Sharma, Wu and Dalal 2005 give
// it). About 2 is the least an eye sees side by side; kinds a reader must tell apart at a glance need far more.
import type { Rgba } from '../../webview/ink.ts';

type Lab = [number, number, number];

/** CIELAB (D65) of an opaque sRGB colour. */
function lab(c: Rgba): Lab {
  const [r, g, b] = [c[0], c[1], c[2]].map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

const rad = (deg: number): number => (deg * Math.PI) / 180;
const hue = (b: number, a: number): number => ((Math.atan2(b, a) * 180) / Math.PI + 360) % 360;

export function deltaE2000(first: Rgba, second: Rgba): number {
  const [l1, a1, b1] = lab(first);
  const [l2, a2, b2] = lab(second);
  const cMean = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cMean ** 7 / (cMean ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + g) * a1, (1 + g) * a2];
  const [c1, c2] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const [h1, h2] = [hue(b1, a1p), hue(b2, a2p)];
  const chroma = c1 * c2 !== 0;
  let dh = h2 - h1;
  if (!chroma) dh = 0;
  else if (dh > 180) dh -= 360;
  else if (dh < -180) dh += 360;
  const dL = l2 - l1;
  const dC = c2 - c1;
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin(rad(dh / 2));
  const lMean = (l1 + l2) / 2;
  const cpMean = (c1 + c2) / 2;
  const hMean = !chroma
    ? h1 + h2
    : Math.abs(h1 - h2) <= 180
      ? (h1 + h2) / 2
      : h1 + h2 < 360
        ? (h1 + h2 + 360) / 2
        : (h1 + h2 - 360) / 2;
  const t =
    1 -
    0.17 * Math.cos(rad(hMean - 30)) +
    0.24 * Math.cos(rad(2 * hMean)) +
    0.32 * Math.cos(rad(3 * hMean + 6)) -
    0.2 * Math.cos(rad(4 * hMean - 63));
  const rotation = 30 * Math.exp(-(((hMean - 275) / 25) ** 2));
  const rc = 2 * Math.sqrt(cpMean ** 7 / (cpMean ** 7 + 25 ** 7));
  const sl = 1 + (0.015 * (lMean - 50) ** 2) / Math.sqrt(20 + (lMean - 50) ** 2);
  const sc = 1 + 0.045 * cpMean;
  const sh = 1 + 0.015 * cpMean * t;
  const rt = -Math.sin(rad(2 * rotation)) * rc;
  return Math.sqrt((dL / sl) ** 2 + (dC / sc) ** 2 + (dH / sh) ** 2 + rt * (dC / sc) * (dH / sh));
}

/** Machado, Oliveira and Fernandes 2009's full-severity dichromacy matrices, on linear sRGB. */
const DICHROMACY = {
  protan: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deutan: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritan: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
} as const;

export type Dichromacy = keyof typeof DICHROMACY;
export const DICHROMACIES = Object.keys(DICHROMACY) as Dichromacy[];

/** An opaque sRGB colour as a protanope, deuteranope or tritanope sees it (Machado 2009, severity 1). */
export function asSeenWith(c: Rgba, kind: Dichromacy): Rgba {
  const linear = [c[0], c[1], c[2]].map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  const [r, g, b] = DICHROMACY[kind].map((row) => {
    const v = Math.min(1, Math.max(0, row[0] * linear[0]! + row[1] * linear[1]! + row[2] * linear[2]!));
    return 255 * (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);
  }) as [number, number, number];
  return [r, g, b, 1];
}
