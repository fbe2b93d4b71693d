// The one-line answers of the CodeLens, cut to fit: the runner's headline says its verdict first, so a line cut here
// still holds the answer; the whole line goes in the tooltip.
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
  if (out.length > max) out = out.replace(/\s*\([^()]*\)/g, '');
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
    out = clauses[0]!.trim();
    for (const clause of clauses.slice(1)) {
      if (`${out}:${clause}`.length > max) break;
      out = `${out}:${clause}`;
    }
  }
  if (out.length > max) out = `${out.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
  for (const part of parts.slice(1)) {
    if (out.length + 3 + part.length > max) break;
    out += ` · ${part}`;
  }
  return out;
}
