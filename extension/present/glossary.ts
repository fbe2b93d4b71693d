// The compiler's words a user meets in a report, and the product's own terms for how it measures, each explained in
// one short phrase: the one place these explanations live (the panel shows them as tooltips where the words appear,
// and as the note beside a table of such numbers).

export interface Term {
  /** what the panel calls it */
  name: string;
  /** where it occurs in report text */
  pattern: RegExp;
  explanation: string;
}

export const TERMS: readonly Term[] = [
  {
    name: 'compile id',
    pattern: /\b\d+\/\d+\b/,
    explanation:
      "compile id F/N: Dynamo's number F for the compiled function, then its compile N (0 the first, 1 its first recompile)",
  },
  {
    name: 'TENSOR_MATCH',
    pattern: /\bTENSOR_MATCH\b/,
    explanation: "TENSOR_MATCH: the guard that checks a tensor's dtype, device, shape and strides",
  },
  {
    name: 'guard',
    pattern: /\bguards?\b/i,
    explanation:
      'guard: a check Dynamo runs before reusing compiled code; when one fails it compiles again (a recompile)',
  },
  {
    name: 'guard comment',
    // "# return F.linear(input, self.weight, self.bias)  # nn/modules/linear.py:134 in forward" after a guard
    pattern: /#[^#\n]*#\s*\S+\.py:\d+ in \w+/,
    explanation:
      'guard comment, the "# code  # file.py:N in f" after a guard: the line where Dynamo first used the guarded value, often inside PyTorch\'s own code, not where the value comes from in your code',
  },
  {
    name: 'DispatchKeySet',
    pattern: /\bDispatchKeySet\([^)]*\)/,
    explanation:
      "DispatchKeySet(...): the tensor's dispatch keys (its device, and whether autograd tracks it), checked with its dtype, shape and strides",
  },
  {
    name: 'local name',
    pattern: /\bL\['[^']*'\]/,
    explanation: "L['name']: the compiled function's local variable (or argument) of that name",
  },
  {
    name: 'recompile limit',
    pattern: /\brecompile[_ ]limit\b/i,
    explanation:
      'recompile limit: how many times Dynamo compiles one function (8 by default) before it runs it eagerly from then on',
  },
  {
    name: 'graph break',
    pattern: /\bgraph[- ]breaks?\b/i,
    explanation:
      'graph break: a line Dynamo cannot compile; the graph stops there, Python runs it eagerly, and a new graph starts after it',
  },
  {
    name: 'in situ',
    pattern: /\bin situ\b/i,
    explanation: "in situ: measured inside the script's own run, its own steps, as written against compiling off",
  },
  {
    name: 'fast state',
    pattern: /\b(?:host's )?fast(?:est)? state\b/i,
    explanation:
      "the host's fast state: the CPU as fast as a 1 ms probe saw it run in this run; steps timed while it ran slower (other jobs, a lower clock) are not counted",
  },
  {
    name: 'replayed',
    pattern: /\breplayed\b/i,
    explanation:
      "replayed: the region's calls made again, back to back, on inputs saved from the script's own calls (its fastest round); in situ numbers time the calls as the script made them",
  },
  {
    name: 'next run',
    pattern: /\bnext run\b/i,
    explanation:
      "next run: where another run's speedup may land; speedup: eager's time ÷ compiled time, each side's fastest of its runs, the two taking turns (a busy host only adds time)",
  },
];

/** The explanation of the term named `name`, said alone (a note beside the numbers it explains). */
export function explanation(name: string): string {
  const term = TERMS.find((t) => t.name === name);
  if (!term) throw new Error(`no term ${name} in the glossary`);
  return term.explanation;
}

/** `text` cut into plain runs and the terms in it (each term's first occurrence only: one tooltip is enough). */
export function splitTerms(text: string): ({ text: string; term?: undefined } | { text: string; term: Term })[] {
  const found: { at: number; end: number; term: Term }[] = [];
  for (const term of TERMS) {
    const match = term.pattern.exec(text);
    if (!match) continue;
    const at = match.index;
    const end = at + match[0].length;
    if (found.some((f) => at < f.end && f.at < end)) continue; // TENSOR_MATCH before guard: the first listed wins
    found.push({ at, end, term });
  }
  found.sort((a, b) => a.at - b.at);
  const parts: ReturnType<typeof splitTerms> = [];
  let from = 0;
  for (const f of found) {
    if (f.at > from) parts.push({ text: text.slice(from, f.at) });
    parts.push({ text: text.slice(f.at, f.end), term: f.term });
    from = f.end;
  }
  if (from < text.length) parts.push({ text: text.slice(from) });
  return parts;
}

/** The explanations of the terms in `text`, for a tooltip that cannot hold marked words (an SVG title). */
export const explanationsOf = (text: string): string[] =>
  splitTerms(text).flatMap((p) => (p.term ? [p.term.explanation] : []));
