// The one-line answers of the CodeLens, cut to fit: the runner's headline says its verdict first, so a line cut here
// still holds the answer; the whole line goes in the tooltip.
const SPEEDUP = /\d×/;
const withoutAsides = (text: string): string => text.replace(/\s*\([^()]*\)/g, '');

/**
 * A CodeLens-length line (≤ max characters) from "a · b · c" parts: whole parts while they fit, a long first part
 * without its asides in parentheses ("compile for longer runs: 1.19× per call replayed (1.12–1.26×) · …" → "compile for
 * longer runs: 1.19× per call replayed": the number stays), then with its last ','-asides that fit, else cut after its last
 * ':'-clause that fits ("r0 Net: not replayable: it changes …" → "r0 Net: not replayable"); the full text goes in the
 * lens's tooltip.
 */
export function shortLine(text: string, max = 60): string {
  if (text.length <= max) return text;
  const parts = text.split(' · ');
  let out = parts[0]!;
  if (out.length > max) out = withoutAsides(out);
  const commas = out.split(', ');
  if (out.length > max && commas[0]!.length <= max) {
    // the number's clause and its last ','-asides that fit, which say whether to trust it: "no verdict: 0.94× per step
    // in situ, too noisy to say, host busy, not trusted" → "no verdict: 0.94× per step in situ, host busy, not trusted"
    const kept: string[] = [];
    for (const aside of commas.slice(1).reverse()) {
      if ([commas[0], aside, ...kept].join(', ').length > max) break;
      kept.unshift(aside);
    }
    out = [commas[0]!, ...kept].join(', ');
  }
  if (out.length > max) {
    // the longest run of its ':'-clauses that fits: "r0 Net: not replayable: it changes …" → "r0 Net: not replayable"
    const clauses = out.split(':');
    let kept = clauses[0]!.trim();
    for (const clause of clauses.slice(1)) {
      if (`${kept}:${clause}`.length > max) break;
      kept = `${kept}:${clause}`;
    }
    // the verdict's words alone ("no verdict") say too little: then its reason, cut at a word
    if (kept !== clauses[0]!.trim()) out = kept;
  }
  if (out.length > max) out = `${out.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
  for (const part of parts.slice(1)) {
    if (out.length + 3 + part.length > max) break;
    out += ` · ${part}`;
  }
  return out;
}

/** What a CodeLens shows of its line before a half-width editor cuts it, after a note as long as "▶ Compile & Profile
 *  Script | " (reportC L6: 60 was cut at "…host bus"); "no verdict: 111.79×, host busy, not trusted" fits. */
export const LENS_CHARACTERS = 44;

/**
 * A CodeLens title: the headline's verdict and its number, the leading story (a shape fix, a failure) and the asides
 * left to the tooltip. numberText (the runner's words for the number, answer.number.text) finds the verdict's part. Cut
 * where needed after the number, never before it, and keeping the words that say whether to trust it: "no verdict:
 * 0.17× per call replayed (…), host busy, not trusted" → "no verdict: 0.17×, host busy, not trusted"; "no verdict: too
 * noisy to say, 1.07× per call replayed (…)" → "no verdict: too noisy to say, 1.07×". Without a number, shortLine's cut.
 */
export function lensTitle(headline: string, numberText: string | null | undefined): string {
  const parts = headline.split(' · ');
  const at = numberText ? parts.findIndex((part) => part.includes(numberText)) : -1;
  if (at < 0) return shortLine(headline, LENS_CHARACTERS);
  const [verdict, ...facts] = parts.slice(at);
  let out = verdict!.length <= LENS_CHARACTERS ? verdict! : numberClauseCut(withoutAsides(verdict!));
  for (const fact of facts) {
    if (out.length + 3 + fact.length > LENS_CHARACTERS) break;
    out += ` · ${fact}`;
  }
  return out;
}

/** "no verdict: 0.17× per call replayed, host busy, not trusted" in LENS_CHARACTERS: the clauses up to the number's,
 * that one cut after the speedup where the rest does not fit, then its last asides (the trust words) that fit. */
function numberClauseCut(verdict: string): string {
  if (verdict.length <= LENS_CHARACTERS) return verdict;
  const clauses = verdict.split(', ');
  const numberAt = clauses.findIndex((clause) => SPEEDUP.test(clause));
  const upTo = clauses.slice(0, numberAt + 1).join(', ');
  const speedup = new RegExp(`^.*?${SPEEDUP.source}`).exec(upTo)![0];
  const asides = clauses.slice(numberAt + 1);
  for (const head of [upTo, speedup]) {
    const whole = [head, ...asides].join(', ');
    if (whole.length <= LENS_CHARACTERS) return whole;
  }
  while (asides.length && [speedup, ...asides].join(', ').length > LENS_CHARACTERS) asides.shift();
  return [speedup, ...asides].join(', ');
}

/** A target function's lenses on its def line, in order: its last run's answer first (the before-edit note, then the
 *  answer), the action last, as on a script region's line (review 4A F6: "▶ Compile & Profile | no verdict: …" put
 *  the action where a narrow editor keeps it and cut the answer). */
export type TargetLens = 'before-edit' | 'answer' | 'profile';
export const targetLenses = (last: { beforeEdit: boolean } | undefined): TargetLens[] => [
  ...(last ? [...(last.beforeEdit ? (['before-edit'] as const) : []), 'answer' as const] : []),
  'profile',
];
