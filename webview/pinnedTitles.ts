// A pane's title stays under the toolbar while the pane scrolls under it (styles.ts .pane-label): pinned over a pane
// whose axis, steps note and first rows are above the fold, it read as a pane with nothing in it ("scale, eager — 55
// events, 3 steps" over a blank and "profiled window", review 10 G2). A pinned title says so, and a click on it
// scrolls its pane into view from its top.
import { el } from './panels.ts';
import { PINNED_TITLE } from './timelineWords.ts';

/** The hint a title shows while pinned (hidden otherwise: styles.ts), and its click: the pane from its top. */
export function pinnedHint(pane: HTMLElement): HTMLElement {
  const hint = el('span', 'pinned-hint', ` · ${PINNED_TITLE}`);
  hint.addEventListener('click', () => pane.scrollIntoView({ block: 'start' }));
  return hint;
}

/** Marks each pane's title pinned where its pane's top is scrolled above the toolbar's bottom and the pane is still
 *  below it. */
export function markPinnedTitles(): void {
  const line = document.querySelector('.toolbar')?.getBoundingClientRect().bottom ?? 0;
  for (const pane of document.querySelectorAll<HTMLElement>('.pane')) {
    const box = pane.getBoundingClientRect();
    pane.querySelector('.pane-label')?.classList.toggle('pinned', box.top < line - 1 && box.bottom > line);
  }
}
