// The labels of a frame's slices: each one's words cut at whole words to its slice, in the ink that reads on what
// is painted under it (the slices' fills and outlines, and a compile's or break's band around it).
import type { TraceModel } from '../extension/shared/trace/model.ts';
import type { Paint, TextBox } from './frameLayout.ts';
import { composite, readableInk } from './ink.ts';
import { bandsAround, type MarkBand } from './overlays.ts';
import type { SliceRects } from './sliceRects.ts';
import type { Theme } from './theme.ts';
import { partsSaidAlike, placeText, sliceLabel, type Measure } from './timelineText.ts';
import { ROW_HEIGHT, type TrackRows } from './timelineRows.ts';

/** a slice to label and the words its label says, before they are cut to it */
export interface SliceWords {
  i: number;
  words: string;
  /** where its words do not fit whole, the whole shorter forms it may take, longest first, in place of their cut
   *  (timelineWords.lastToArriveForms) */
  shorter?: readonly string[];
}

/** What the slices were drawn with: the model, its rows and the rects the frame filled. */
export interface DrawnSlices {
  model: TraceModel;
  tracks: TrackRows;
  rects: SliceRects;
}

/** How far left of a step's line a slice may begin and its label still start at the line: "compiled module" from 13 px
 *  left of call 1's line straddled it, the line cut around its words, and read as the call before's as much as call
 *  1's (review 17Z Z5: the frame begins ≈70 µs before the profiler's record of the call); as far right of one a slice
 *  may end and its label end short of the line (review 18Z Z8) */
const STEP_LINE_SNAP_PX = 16;
/** a label's words from its slice's edges: clear of the slice's own outline */
const INSET = 3;
/** the least air between a label's words and a step's line they end short of */
const LINE_AIR = 1;

/**
 * The labels of slices wide enough for one: the name, cut at whole words to the slice (none where no whole word
 * fits: timelineText.sliceLabel; a phase's part left off all of its name's labels in a row where one has no room for
 * it: partsSaidAlike), in the ink that reads on the slice's colour and on a compile's or break's band
 * around it (one whose edge would cross it is drawn clear of it: overlays.clearLabelsOfBands). `view`: time to
 * canvas x, the x span slices are drawn in, and the step lines' x (a label begun just left of one starts there, one
 * ending just right of one ends short of it).
 */
export function sliceTexts(
  labels: readonly SliceWords[],
  { model, tracks, rects }: DrawnSlices,
  view: { xOf: (t: number) => number; left: number; right: number; stepXs: readonly number[] },
  m: Measure,
  theme: Theme,
  bands: readonly MarkBand[],
): TextBox[] {
  const { xOf, left, right, stepXs } = view;
  const page: Paint = { colour: theme.background, alpha: 1 };
  const texts: TextBox[] = [];
  const fitted = labels.map((label) => {
    const { i } = label;
    const begins = Math.max(left, xOf(model.start[i]!));
    // a slice begun just left of a step's line is labelled from the line (drawn over [x, x + 1)), not across it
    const line = stepXs.find((x) => x > begins && x - begins <= STEP_LINE_SNAP_PX);
    const x0 = line === undefined ? begins : line + 1;
    // and one that ends just right of a line has its label end short of it: call 2's "compiled module" ran to the
    // "after call 2" line, the line cut around its words (review 18Z Z8)
    const ends = Math.min(right, xOf(model.start[i]! + model.dur[i]!));
    const endLine = stepXs.find((x) => x > x0 && x < ends && ends - x <= STEP_LINE_SNAP_PX);
    // (a label of whole forms, `shorter`, keeps its own: none names a part)
    const name = label.shorter ? '' : label.words;
    const fit = {
      x0,
      inset: INSET,
      name,
      row: tracks.sliceY(i),
      text: fittedWords(label, (endLine ?? ends) - x0 - 2 * INSET, m),
    };
    if (endLine === undefined) return fit;
    const whole = fittedWords(label, Infinity, m);
    if (whole === null || fit.text === whole) return fit;
    // one that the line's rule would cut, kept whole where it fits from its left line's pixel on and a px short of
    // the end line, the insets given up as the lines stand between it and the bars beside (call 2's "compiled
    // module" cut to "compiled…" beside call 1's whole one: review 19Z Z4); at a slice's own edge its inset kept
    const inset = Math.min(INSET, endLine - LINE_AIR - x0 - m.width(whole));
    return inset >= (line === undefined ? INSET : 0) ? { ...fit, inset, text: whole } : fit;
  });
  const said = partsSaidAlike(fitted);
  for (const [k, { x0, inset, row: y }] of fitted.entries()) {
    const text = said[k];
    if (!text) continue;
    // (the colour under it at a pixel inside its slice, clear of the slice's own outline)
    const at = x0 + inset;
    const under = [
      page,
      ...rects.paintsAt(Math.round(x0 + 1.5), y + ROW_HEIGHT / 2, theme),
      ...bandsAround(bands, at, at + m.width(text)).map((b) => b.paint),
    ];
    const ink = { colour: readableInk(composite(under), [theme.foreground, theme.background]), alpha: 1 };
    texts.push(placeText(m, 'slice', text, at, y + ROW_HEIGHT / 2, ink, under));
  }
  return texts;
}

/** A slice's words in `room` px: the longest of its whole forms that fits (`shorter`), else its words cut at whole
 *  words (timelineText.sliceLabel); null where none fits. */
export const fittedWords = ({ words, shorter }: SliceWords, room: number, m: Measure): string | null =>
  shorter ? ([words, ...shorter].find((form) => m.width(form) <= room) ?? null) : sliceLabel(words, room, m);
