// The report panel's links to the user's lines, the line numbers it shows beside their code, and the lines the
// runner's sentences name: each follows the user's edits since the panel opened (the host's 'edited',
// shared/movedLines.ts), as Problems and hovers do, so a Quick Fix that inserted a line above a finding leaves no link
// or sentence on the line it was on before.
import { EditedLines, saidAfterEdits, type LinesNow, type TextChange } from '../extension/shared/movedLines.ts';
import type { SourceLocation } from '../extension/shared/report.ts';
import { placeOf, type SourcePlace } from '../extension/shared/sourcePlace.ts';

export type Reveal = (file: string, line: number, cell: number | null) => void;
type Located = Pick<SourceLocation, 'file' | 'line' | 'cell'>;

const edits = new EditedLines();
/** Where the report's lines are now: the timeline's names that cite lines say them so (analysis/sliceNames.ts). */
export const linesNow: LinesNow = edits;
const FOLLOWS = 'follows-line';
/** Each node that names a line: says it again for the line it is on now. */
const sayers = new WeakMap<Element, () => void>();

const lineNow = (at: Located): number => edits.line(placeOf(at), at.line);

/** `node` with the text `text(line)` for the line `at` is on now, said again after each edit. */
export function followLine<T extends HTMLElement>(node: T, at: Located, text: (line: number) => string): T {
  const say = (): void => {
    node.textContent = text(lineNow(at));
  };
  say();
  node.classList.add(FOLLOWS);
  sayers.set(node, say);
  return node;
}

/** `node` saying the runner's `text`, a sentence about `own` (where its bare "line 9" is; null: none), with each line
 *  it names on the line that line is on now, said again after each edit; `say` puts a text in the emptied node. */
export function followSaid<T extends Element>(
  node: T,
  own: Pick<Located, 'file' | 'cell'> | null,
  text: string,
  say: (node: T, text: string) => void,
): T {
  const place = own ? placeOf(own) : null;
  const again = (): void => {
    node.replaceChildren();
    say(node, saidAfterEdits(text, place, edits));
  };
  again();
  node.classList.add(FOLLOWS);
  sayers.set(node, again);
  return node;
}

/** A link to the line `at`: labelled `label(line)` for the line it is on now, which a click opens. */
export function sourceLink(at: Located, label: (line: number) => string, reveal: Reveal): HTMLButtonElement {
  const link = document.createElement('button'); // not panels.el(): panels.ts makes its links here
  link.className = 'link';
  link.type = 'button';
  link.title = at.file;
  link.addEventListener('click', () => reveal(at.file, lineNow(at), at.cell ?? null));
  return followLine(link, at, label);
}

/** The host's 'edited': every edit of `place` that moved lines so far; each node naming one of its lines follows. */
export function linesEdited(place: SourcePlace, changes: readonly TextChange[]): void {
  edits.set(place, changes);
  for (const node of document.querySelectorAll(`.${FOLLOWS}`)) sayers.get(node)?.();
}
