// What one frame of a timeline pane drew, in canvas px: every text's box with its ink and the paints under it,
// every vertical line (timelineText.ts places them) and a finding's outlined places. Kept per pane after each frame
// for the tests (main.ts's __timelineDebug), which check from it that no text covers another, no line crosses a
// text, nothing runs off the canvas, and each text reads.

/** A colour as painted: a CSS colour and the canvas's globalAlpha over it. */
export interface Paint {
  colour: string;
  alpha: number;
}

/** 'idle': the label column's count of the tracks with nothing in view; 'gap': a step's stretch with no op recorded;
 *  'cut': a slice's mark right of a step view's end line, where it runs on past it (stepCuts.ts);
 *  'unseen': a row whose slices in view are too short to see (unseenRows.ts) */
export type TextRole = 'tick' | 'step' | 'mark' | 'slice' | 'track' | 'idle' | 'gap' | 'cut' | 'unseen';

export interface TextBox {
  role: TextRole;
  /** what was drawn (shortened with "…" where it did not fit) */
  text: string;
  /** the font's box of the text: left, top, width, height */
  x: number;
  y: number;
  w: number;
  h: number;
  /** the y the text was drawn at, with textBaseline 'middle' */
  middle: number;
  ink: Paint;
  /** what lies under the text, the page's background first */
  under: Paint[];
}

/** A vertical line: [x, x + w) from y0 to y1; a band's edge in its own colour (overlays.bandEdges); 'split': a step
 *  line's piece drawn over in the page's colour, between two bars that abut at it (stepLineSplits.ts). */
export interface LineSegment {
  role: 'step' | 'tick' | 'band' | 'split';
  colour?: string;
  x: number;
  w: number;
  y0: number;
  y1: number;
}

/** A rectangle in canvas px: a finding's place as outlined (overlays.drawFocus). */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface FrameLayout {
  width: number;
  height: number;
  /** where the label column ends and the time axis begins */
  left: number;
  texts: TextBox[];
  lines: LineSegment[];
  /** a finding's places, outlined */
  outlines: Box[];
}
