// A fold button over each Python stack track's name, which the canvas draws in its label column: Tab reaches it,
// Enter or Space folds or unfolds the stack, a screen reader hears the track's name and whether its frames are
// shown (aria-expanded), and a click on the name lands on it; a stack idle in the view has none.
import type { TimelineCanvas } from './timeline.ts';
import { LABEL_WIDTH } from './timelineText.ts';

/** The buttons of `timeline`'s stack tracks, in a box laid over its canvas; `redraw`: the canvas changed height. */
export function stackToggles(timeline: TimelineCanvas, redraw: () => void): HTMLElement {
  const box = document.createElement('div');
  box.className = 'stack-toggles';
  const buttons = timeline.stackTracks().map((track) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'stack-toggle';
    button.style.width = `${LABEL_WIDTH}px`;
    button.setAttribute('aria-label', timeline.trackNames[track]!);
    button.addEventListener('click', () => {
      timeline.toggleStack(track);
      place();
      redraw();
    });
    box.append(button);
    return { track, button };
  });
  // where each name is: a stack unfolded above moves the ones below it
  const place = (): void => {
    for (const { track, button } of buttons) {
      const name = timeline.stackName(track);
      // a stack with nothing in view is not drawn: nor is its button
      button.hidden = name === null;
      if (!name) continue;
      const { top, height, folded, title } = name;
      button.style.top = `${top}px`;
      button.style.height = `${height}px`;
      button.setAttribute('aria-expanded', String(!folded));
      button.title = title;
    }
  };
  place();
  timeline.onLayout = place;
  return box;
}
