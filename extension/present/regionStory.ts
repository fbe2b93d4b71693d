// The first-call story of a script-mode region, in words: which call compiled, which recompiled and why, whether
// the graph an early call compiled was ever used again, from which call on the region ran at its steady speed,
// and which calls Dynamo ran eagerly. Derived only from the region's recorded calls: it says what they show.
import type { Region, RegionCall } from '../shared/report.ts';
import { formatMs, formatSeconds, plural } from './numbers.ts';

export interface SignatureTensor {
  dtype: string;
  shape: number[];
}

export interface ParsedSignature {
  tensors: SignatureTensor[];
  /** the part after ';' (inference, no_grad, grad), when given */
  grad: string | null;
}

/** 'float32[5, 4096, 64], int64[5]; inference' → its tensors and grad mode (other arguments are ignored). */
export function parseSignature(signature: string): ParsedSignature {
  const cut = signature.lastIndexOf(';');
  const args = cut >= 0 ? signature.slice(0, cut) : signature;
  const grad = cut >= 0 ? signature.slice(cut + 1).trim() || null : null;
  const tensors: SignatureTensor[] = [];
  for (const match of args.matchAll(/([A-Za-z_][\w]*)\[([\d,\s]*)\]/g)) {
    const dims = match[2]!
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean)
      .map(Number);
    tensors.push({ dtype: match[1]!, shape: dims });
  }
  return { tensors, grad };
}

const shapeText = (t: SignatureTensor): string => `${t.dtype}[${t.shape.join(', ')}]`;

/**
 * How two signatures differ, in a few words each: "batch 1" / "batch 5" when only the leading dimension of
 * (batched, 2-D or more) tensors changed, else the first tensor that differs, else the grad mode, else the
 * signatures themselves.
 */
export function signatureChange(before: string, after: string): { from: string; to: string } {
  const a = parseSignature(before);
  const b = parseSignature(after);
  const sameLayout =
    a.tensors.length === b.tensors.length &&
    a.tensors.length > 0 &&
    a.tensors.every((t, i) => t.dtype === b.tensors[i]!.dtype && t.shape.length === b.tensors[i]!.shape.length);
  if (sameLayout) {
    const differing = a.tensors.flatMap((t, i) => (shapeText(t) === shapeText(b.tensors[i]!) ? [] : [i]));
    if (differing.length) {
      // "batch": every differing tensor changed only its leading dimension, all from the same size to the same size
      const [from, to] = [a.tensors[differing[0]!]!.shape[0], b.tensors[differing[0]!]!.shape[0]];
      const batchOnly =
        differing.some((i) => a.tensors[i]!.shape.length >= 2) &&
        differing.every((i) => {
          const [x, y] = [a.tensors[i]!.shape, b.tensors[i]!.shape];
          return x[0] === from && y[0] === to && x.slice(1).join() === y.slice(1).join();
        });
      if (batchOnly) return { from: `batch ${from}`, to: `batch ${to}` };
      const first = differing[0]!;
      return { from: shapeText(a.tensors[first]!), to: shapeText(b.tensors[first]!) };
    }
    if (a.grad !== b.grad && a.grad && b.grad) return { from: a.grad, to: b.grad };
  }
  return { from: before, to: after };
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** "8.2 s" of compiling, or "the call took 8.6 s" when only the call's duration is known; null when neither is. */
function compileCost(call: RegionCall): string | null {
  if (call.compileSeconds != null) return formatSeconds(call.compileSeconds);
  if (call.ms != null) return `the call took ${formatMs(call.ms)}`;
  return null;
}

const reasonText = (call: RegionCall): string => (call.recompileReason ? ` (${call.recompileReason})` : '');

/** The first call's graph was never used again and a later call recompiled for the inputs the script really used. */
function unusedFirstGraph(calls: RegionCall[]): string | null {
  const first = calls.findIndex((c) => c.event === 'compiled');
  if (first < 0) return null;
  const later = calls.slice(first + 1);
  const compiledFor = calls[first]!.signature;
  if (!later.length || later.some((c) => c.signature === compiledFor)) return null;
  const recompile = later.find((c) => c.event === 'recompiled');
  if (!recompile) return null;
  // the script settled on the recompiled inputs (not a new shape every call: that is churn, told below)
  const atNew = later.filter((c) => c.signature === recompile.signature).length;
  if (atNew * 2 < later.length) return null;
  const change = signatureChange(compiledFor, recompile.signature);
  const cost =
    recompile.compileSeconds != null
      ? `paid ${formatSeconds(recompile.compileSeconds)} recompiling`
      : `recompiled${recompile.ms != null ? ` (the call took ${formatMs(recompile.ms)})` : ''}`;
  return (
    `call ${first} (${change.from}) compiled a graph that none of the ${plural(later.length, 'later call')} used` +
    (atNew === later.length ? ` (all at ${change.to})` : '') +
    `; call ${recompile.index}, the first at ${change.to}, ${cost}${reasonText(recompile)}.`
  );
}

/** Many recompiles: how many, whether each was for inputs never seen before, what changed, the compile time. */
function recompileChurn(calls: RegionCall[], recompiles: RegionCall[]): string {
  const seen = new Set<string>();
  let allNew = true;
  for (const call of calls) {
    if (call.event === 'recompiled' && seen.has(call.signature)) allNew = false;
    seen.add(call.signature);
  }
  const compiles = calls.filter((c) => c.event !== 'cached');
  const known = compiles.filter((c) => c.compileSeconds != null);
  const seconds = known.reduce((sum, c) => sum + c.compileSeconds!, 0);
  const changes = recompiles.map((r) => {
    const before = calls[calls.indexOf(r) - 1];
    return before ? signatureChange(before.signature, r.signature).to : r.signature;
  });
  const shown = changes.length > 4 ? [...changes.slice(0, 3), '…', changes[changes.length - 1]!] : changes;
  const cost = known.length
    ? `; ${formatSeconds(seconds)} went to compiling${known.length < compiles.length ? ' (in the calls that reported it)' : ''}`
    : '';
  return `${recompiles.length} of ${plural(calls.length, 'call')} recompiled${allNew ? ', each for inputs not seen before' : ''} (${shown.join(', ')})${cost}.`;
}

/** One or two compiles: each with its cost and, for a recompile, the inputs and the guard that failed. */
function compileEvents(compiles: RegionCall[], calls: RegionCall[]): string {
  const parts = compiles.map((c) => {
    const cost = compileCost(c);
    if (c.event === 'compiled') return `call ${c.index} compiled${cost ? ` (${cost})` : ''}`;
    const before = calls[calls.indexOf(c) - 1];
    const at = before ? ` for ${signatureChange(before.signature, c.signature).to}` : '';
    const why = [cost, c.recompileReason].filter(Boolean).join('; ');
    return `call ${c.index} recompiled${at}${why ? ` (${why})` : ''}`;
  });
  return `${parts.join('; ')}.`;
}

/** "8–9", "8, 12, 15–20" */
function callRanges(indices: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < indices.length; i++) {
    let j = i;
    while (j + 1 < indices.length && indices[j + 1] === indices[j]! + 1) j++;
    ranges.push(j > i ? `${indices[i]}–${indices[j]}` : String(indices[i]));
    i = j;
  }
  return ranges.length > 4 ? `${ranges.slice(0, 3).join(', ')}, …` : ranges.join(', ');
}

function fallbacks(calls: RegionCall[]): string | null {
  const eager = calls.filter((c) => c.ranCompiled === false);
  if (!eager.length) return null;
  const reason = eager.find((c) => c.fallbackReason)?.fallbackReason;
  const which =
    eager.length === 1 ? `Call ${eager[0]!.index} ran` : `Calls ${callRanges(eager.map((c) => c.index))} ran`;
  return `${which} eagerly: ${reason ?? 'Dynamo did not run compiled code'}.`;
}

/** The story as one to three sentences, or null when there are no calls to tell it from. */
/**
 * The one line that reconciles the script's own call times with the measured time beside them, when they differ by
 * more than half: the script's calls were timed one at a time as it ran them; the measurement times back-to-back calls.
 */
function steadyVersusTimed(region: Region, steadyMs: number): string | null {
  const measured = region.measurements.find((m) => m.mode === 'as-written' && m.status === 'ok' && m.timing?.medianMs);
  const timedMs = measured?.timing?.medianMs;
  if (!timedMs || (steadyMs <= timedMs * 1.5 && steadyMs >= timedMs / 1.5)) return null;
  return `(The script's calls are timed one at a time as it ran them, with its own work between them; the measurement times back-to-back calls on one input: hence ${formatMs(steadyMs)} here and ${formatMs(timedMs)} measured.)`;
}

export function regionStory(region: Region): string | null {
  if (region.callCount === 0) return `torch.compile returned ${region.name}, but the script never called it.`;
  const calls = region.calls;
  if (!calls.length) return null;
  const sentences: string[] = [];
  const compiles = calls.filter((c) => c.event !== 'cached');
  const recompiles = compiles.filter((c) => c.event === 'recompiled');
  const main =
    unusedFirstGraph(calls) ??
    (recompiles.length >= 2
      ? recompileChurn(calls, recompiles)
      : compiles.length
        ? compileEvents(compiles, calls)
        : null);
  if (main) sentences.push(capitalize(main));
  // the headline counts the compiler's recompiles; a call that recompiled several graphs is one call here
  const recompileCount = region.compiler?.recompiles.length ?? recompiles.length;
  if (main && recompiles.length && recompileCount !== recompiles.length) {
    sentences.push(
      `(${plural(recompileCount, 'recompile')} in all in ${plural(recompiles.length, 'call')}: one call recompiles each of its graphs whose guard failed, e.g. the parts around a graph break.)`,
    );
  }
  const steady = region.steadyState;
  const situ = region.inSitu;
  if (situ?.call && situ.steadyFromCall != null) {
    // the in-situ runs' calls carried none of the observer's work: the durations the story tells
    sentences.push(
      `From call ${situ.steadyFromCall} on, the script's own calls took ${formatMs(situ.call.compiledMs)} compiled ` +
        `(median, in situ) against ${formatMs(situ.call.eagerMs)} with compiling off.`,
    );
  } else if (steady && compiles.length && steady.fromCall < region.callCount) {
    sentences.push(
      `From call ${steady.fromCall} on, calls took ${formatMs(steady.medianMs)} (median) without compiling.`,
    );
    const timed = steadyVersusTimed(region, steady.medianMs);
    if (timed) sentences.push(timed);
  }
  const eager = fallbacks(calls);
  if (eager) sentences.push(eager);
  if (region.callsTruncated) sentences.push(`(The first ${calls.length} of ${region.callCount} calls were recorded.)`);
  return sentences.length ? sentences.join(' ') : null;
}
