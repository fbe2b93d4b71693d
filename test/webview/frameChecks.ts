// What breaks the timeline's legibility rules in one drawn frame (frameLayout.ts), for timelineLegible.test.ts: texts
// over texts, lines through texts, texts past the canvas, ink under 4.5:1, steps the note says with no label, one op
// with and without its namespace.
import type { FrameLayout, Paint, TextBox } from '../../webview/frameLayout.ts';
import { contrast, LABEL_FILL, over, type Rgba } from '../../webview/ink.ts';

/** A pane that labels one op with its namespace ("gloo:all_reduce", "aten::linear") and another without it
 *  ("all_reduce", "addmm"): they read as other ops (review 8B B9). `bareOps`: its ops without their namespaces. */
export function namespacesMixed(frame: FrameLayout, bareOps: ReadonlySet<string>): string[] {
  const labels = frame.texts.filter((t) => t.role === 'slice').map((t) => t.text);
  const kept = labels.filter((t) => /^[A-Za-z_][\w.]*::?\w/.test(t));
  const bare = labels.filter((t) => !t.includes(':') && [...bareOps].some((op) => op.startsWith(t.replace(/…$/, ''))));
  return kept.length && bare.length ? [`with a namespace: ${kept.join(', ')}; without: ${bare.join(', ')}`] : [];
}

/** A pane's slice labels cut inside an op's name: "add…" of addmm read as the fused-away add, "_native_m…" (review
 *  14 R3, 13 O8). `bareOps`: its ops without their namespaces. */
export function opsCut(frame: FrameLayout, bareOps: ReadonlySet<string>): string[] {
  return frame.texts
    .filter((t) => t.role === 'slice' && /^[\w.]+…$/.test(t.text))
    .filter((t) => [...bareOps].some((op) => op.startsWith(t.text.slice(0, -1))))
    .map((t) => `${describeText(t)}: an op's name cut`);
}

export const describeText = (t: TextBox): string => `${t.role} "${t.text}" at ${t.x.toFixed(0)},${t.y.toFixed(0)}`;

/** What breaks the rules in one frame; empty when it reads. */
export function problems(frame: FrameLayout, colours: Map<string, Rgba>): string[] {
  const found: string[] = [];
  const { texts, lines } = frame;
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i]!, texts[j]!];
      if (a.x < b.x + b.w - 0.5 && b.x < a.x + a.w - 0.5 && a.y < b.y + b.h - 0.5 && b.y < a.y + a.h - 0.5)
        found.push(`${describeText(a)} overlaps ${describeText(b)}`);
    }
  for (const line of lines)
    for (const t of texts)
      if (line.x < t.x + t.w - 0.5 && t.x + 0.5 < line.x + line.w && line.y0 < t.y + t.h - 0.5 && t.y + 0.5 < line.y1)
        found.push(`a ${line.role} line at x ${line.x.toFixed(1)} crosses ${describeText(t)}`);
  for (const t of texts) {
    const [left, right] = t.role === 'track' || t.role === 'idle' ? [0, frame.left] : [frame.left, frame.width];
    if (t.x < left - 0.5 || t.x + t.w > right + 0.5 || t.y < -0.5 || t.y + t.h > frame.height + 0.5)
      found.push(`${describeText(t)} runs past [${left}, ${right}] × [0, ${frame.height}] (width ${t.w.toFixed(1)})`);
  }
  // no time before the aligned step reads negative ("−5 ms"): the ruler names that stretch instead
  for (const t of texts)
    if (t.role === 'tick' && /^[−-]/.test(t.text)) found.push(`${describeText(t)}: a negative time`);
  // a step is named once, by the axis's ruler: its ProfilerStep slice is not labelled again
  const stepNames = new Set(texts.filter((t) => t.role === 'step').map((t) => t.text));
  for (const t of texts) if (t.role === 'slice' && stepNames.has(t.text)) found.push(`${describeText(t)}: said twice`);
  const names = texts.filter((t) => t.role === 'track').map((t) => t.text);
  for (const name of names) if (name.includes('…') || name.startsWith('process ')) found.push(`track name "${name}"`);
  // a step label is whole, never cut ("cal…"), and says what its numbers count: never a bare "2–3" beside a time
  // axis, read as times (review 17Y Y8)
  const steps = texts.filter((t) => t.role === 'step').sort((a, b) => a.x - b.x);
  for (const t of steps) if (t.text.includes('…')) found.push(`${describeText(t)}: a step label cut`);
  // the stretch before the first step says which step it is before: a bare "before" read as a stray word (review 8B
  // B12)
  for (const t of steps) if (t.text === 'before') found.push(`${describeText(t)}: "before" of no step`);
  for (const t of steps) if (/^\d+(–\d+)?$/.test(t.text)) found.push(`${describeText(t)}: a step's number alone`);
  // a name cut keeps its op, not its namespace: "all_re…" before "gloo:all_…"
  for (const t of texts)
    if (t.role === 'slice' && /^[A-Za-z_][\w.]*::?\S.*…$/.test(t.text))
      found.push(`${describeText(t)}: cut with its namespace kept`);
  // nor a prefix alone (review 14 T5: the folded row's "torch: …" at 700 px where 1400 read "compiled module")
  for (const t of texts)
    if (t.role === 'slice' && /^[\w.']+:\s*…$/.test(t.text)) found.push(`${describeText(t)}: cut to a prefix alone`);
  // a slice's label cut after a word that says something: never a possessive or a word that leads on ("Inductor's
  // …", "code of…"), nor with the ellipsis spaced off its word ("addmm's …" beside "addmm's…") (review 14 R3, T10)
  for (const t of texts)
    if (
      t.role === 'slice' &&
      /(?:[^\w)]|['’]s|\b(?:of|in|at|on|for|to|from|by|with|the|a|an|and|or|nor))…$/.test(t.text)
    )
      found.push(`${describeText(t)}: cut after a word that leads on`);
  // a tick label starts right of its tick: one turned to the tick's left reads as the tick before's ("50 ms│")
  for (const t of texts)
    if (t.role === 'tick' && !lines.some((l) => l.role === 'tick' && l.x + l.w <= t.x && t.x - l.x <= 6))
      found.push(`${describeText(t)}: not right of its tick`);
  for (const t of texts)
    if (
      /Torch-Compiled Region|CompiledFxGraph|^graph_\d+_|^triton_|\d+\/\d+$|^PyTorch Profiler \(|compiled (?:graph|function) \d|TorchDynamo|^Pregraph|^AOTDispatcher|^CompiledFunction/.test(
        t.text,
      )
    )
      found.push(`${describeText(t)}: a compiler code as a name`);
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (repeated.length) found.push(`track names drawn alike: ${[...new Set(repeated)].join(', ')}`);
  const paint = (p: Paint): Rgba => {
    const c = colours.get(p.colour)!;
    return [c[0], c[1], c[2], c[3] * p.alpha];
  };
  // a slice's label on a fill that black or white reads on with room for its thin glyphs' blended edges (review 8B
  // B11: white on the dark theme's mid-grey, 4.6:1 as painted, read at 3.5:1)
  for (const t of texts.filter((x) => x.role === 'slice')) {
    const fill = over(paint(t.under[1]!), over(paint(t.under[0]!), [0, 0, 0, 1]));
    const best = Math.max(contrast([255, 255, 255, 1], fill), contrast([0, 0, 0, 1], fill));
    if (best < LABEL_FILL)
      found.push(`${describeText(t)}: on ${t.under[1]!.colour}, black or white at ${best.toFixed(2)}:1`);
  }
  for (const t of texts) {
    const [page, ...layers] = t.under.map(paint);
    const under = layers.reduce((below, layer) => over(layer, below), over(page!, [0, 0, 0, 1]));
    const ratio = contrast(over(paint(t.ink), under), under);
    if (ratio < 4.5)
      found.push(
        `${describeText(t)}: contrast ${ratio.toFixed(2)} (${t.ink.colour} on ${t.under.map((p) => p.colour).join(' + ')})`,
      );
  }
  return found;
}

/** The steps the pane's note says are in view ("steps 1–3 in view") that no step label names ("step 1",
 *  "steps 2–3"). */
export function unlabelledSteps(frame: FrameLayout, note: string): number[] {
  const range = (text: string): number[] => {
    const n = /(\d+)(?:–(\d+))?$/.exec(text);
    if (!n) return [];
    const [first, last] = [Number(n[1]), Number(n[2] ?? n[1])];
    return Array.from({ length: last - first + 1 }, (_, k) => first + k);
  };
  const said = new Set(
    frame.texts.filter((t) => t.role === 'step' && !t.text.startsWith('before')).flatMap((t) => range(t.text)),
  );
  const inView = /^(?:step|call)s? ([\d–]+) in view/.exec(note);
  return inView ? range(inView[1]!).filter((n) => !said.has(n)) : [];
}
