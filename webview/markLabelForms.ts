// A compiler mark's label in fewer words where it has less room: its shorter forms, each naming the same event as
// the whole (split from overlays.ts, which places and draws the marks). Pure.
import type { MarkKind } from '../extension/shared/trace/timelineMarks.ts';
import { fitEnd, type Measure } from './timelineText.ts';
import { INSIDE } from './analysis/sliceNames.ts';

/**
 * A mark's label in `room` px where it does not fit whole, shortened, never turned into another event's: the first
 * of its shorter forms (shorterForms) that fits whole; else a compile's last cut, its first word whole (a
 * "recomp…" says nothing: none then); a break's none (its least form says which break it is). The tooltip says the whole.
 */
export function shortestFit(label: string, kind: MarkKind, room: number, m: Measure): string | null {
  const forms = shorterForms(label, kind);
  const last = forms.at(-1)!;
  return (
    forms.find((form) => m.width(form) <= room) ??
    (kind === 'graph-break' ? null : fitEnd(last, room, m, last.split(' ')[0]!.length)?.replace(/ …$/, '…')) ??
    null
  );
}

/** A mark's least label: its shortest form (shorterForms), cut to its first word where it has more ("recompile…"); a
 *  break's whole: "graph…" says not which break it is (review 11 I6), no label says no less. */
export function leastLabel(label: string, kind: MarkKind): string {
  const last = shorterForms(label, kind).at(-1)!;
  const first = last.split(' ')[0]!;
  return first === last || kind === 'graph-break' ? last : `${first}…`;
}

/** words a label cut between words does not end on: "graph break in the…" says no more than "graph break" */
const LITTLE_WORDS = new Set(['in', 'the', 'of', 'at', 'for', 'a', 'after', 'its']);

/** `text` cut between words, longest first, each with "…" and at least `least` words. */
function wordCuts(text: string, least: number): string[] {
  const words = text.split(' ');
  const cuts: string[] = [];
  for (let n = words.length - 1; n >= least; n--) {
    const kept = words.slice(0, n);
    if (!LITTLE_WORDS.has(kept.at(-1)!.replace(/,$/, ''))) cuts.push(`${kept.join(' ').replace(/,$/, '')}…`);
  }
  return cuts;
}

/**
 * A mark's label, longest first, each naming the same event as the whole (review 10H H1, 10G G3: a recompile was
 * "1st compiled call in the step, recompile 1" at 1400 px, and the break before it at 560):
 * - a break: without what follows its ": " ("graph break at line 22, in forward: eager code between graphs" is
 *   "graph break at line 22, in forward"), without the ops in brackets ("graph break in 1st compiled call in the
 *   step"), without the compile it is in ("graph break at line 22"), cut between words while it says which call
 *   where it names no call ("graph break in forward…", review 10G C10: three bare "graph break" in a row read as one
 *   break), then which break it is in fewest words: "break at line 22", "break 1" (the 1st compiled call's, before
 *   any cut: review 13 P4/Q9), else "graph break" where its label says no more (review 11 I6);
 * - a compile: without the ops in brackets, the compile it was ("recompiled for x's size 8 in dimension 0",
 *   "recompile 1") and that cut between words, then its kind ("recompile"); one run inside another frame's call
 *   says its own call first at every width ("4th compiled call's recompile, inside the 1st", "4th compiled call's
 *   recompile", "4th call's recompile"), never which compile alone beside that call's name: over that call's slice
 *   it read as the slice's own (review 11 I1/J1/K2, 13 P2/Q1);
 * - a replay: as it is.
 */
function shorterForms(label: string, kind: MarkKind): string[] {
  const unbracketed = (text: string): string => text.replace(/ \([^()]*\)/g, '');
  if (kind === 'graph-break') {
    const head = label.split(': ')[0]!;
    const bare = unbracketed(head);
    const atLine = bare.split(/,? in /)[0]!;
    const line = /^graph break (at .*line \d+)$/.exec(atLine)?.[1];
    const call = /^graph break in (\d+)(?:st|nd|rd|th) compiled call\b/.exec(bare)?.[1];
    if (line) return [head, bare, atLine, `break ${line}`];
    // "break 2", whole words, before a cut: "graph break in 1st…" left "1st" what (review 13 P4/Q9)
    return call ? [head, bare, `break ${call}`] : [head, bare, ...wordCuts(bare, 4), 'graph break'];
  }
  if (kind === 'cudagraph-replay') return [label];
  // (a compile's ": " is no clause to leave out: "step: recompile limit hit, no graph")
  const [own, call] = label.split(`, ${INSIDE}`) as [string, string | undefined];
  const bare = unbracketed(own);
  const which = /, (recompiled? .*)$/.exec(bare)?.[1];
  const cuts = which ? [which, ...wordCuts(which, 2)] : wordCuts(bare, 2);
  if (call === undefined) return [label, bare, ...cuts, kind];
  // inside another call: whose compile it is first at every width, the call it ran in dropped before its own (review
  // 13 P2: "recompile 1, inside 1st compiled call in the step" read as that call's own, over its slice)
  const inside = `, ${INSIDE}${unbracketed(call)}`;
  const whose = /^(\S+) compiled call('s .*)$/.exec(bare);
  return [label, bare + inside, bare, ...(whose ? [`${whose[1]} call${whose[2]}`] : wordCuts(bare, 2)), kind];
}
