// PyTorch's `dynamo_timed` records each compile phase twice on the profiler's thread, the one inside the other: by its
// key ("GraphLowering.compile_to_fn") and with " (dynamo_timed)" after it, or by the function the key times
// ("entire_frame_compile" around "_compile.compile_inner (dynamo_timed)"). Both are said alike (compilePhaseWords.ts),
// so a rank's timeline drew every phase in two stacked rows of the same words (review 9E E4's rest). The inner twin
// is left out of the model, its children a row up; the outer keeps the phase's name and time.
import { compilePhaseWords } from '../../shared/trace/compilePhaseWords.ts';
import type { RawTrace } from './rawTrace.ts';

/**
 * `raw` without the inner twin of each compile phase recorded twice: a phase's slice that is the only one said alike
 * directly inside a slice said alike (among the compile phases of its track; a short phase's twin may span a tenth
 * of it, the rest the outer's `_data` annotation). A phase said alike twice inside one ("Inductor" for the forward
 * and the backward inside compile_fx's) is two phases: both kept; one said alike once inside another adds a row
 * that says nothing more.
 * `raw` itself where there are none; else a copy with its problems and notes (the model's warnings).
 */
export function withoutPhaseTwins(raw: RawTrace): RawTrace {
  const words = raw.names.map((name) => compilePhaseWords(name));
  if (!words.some((w) => w !== null)) return raw;
  const name = raw.name.data;
  const track = raw.track.data;
  const start = raw.start.data;
  const dur = raw.dur.data;
  const phases: number[] = [];
  for (let i = 0; i < raw.count; i++) if (words[name[i]!] !== null) phases.push(i);
  phases.sort((a, b) => track[a]! - track[b]! || start[a]! - start[b]! || dur[b]! - dur[a]!);
  // each phase's nearest phase around it on its track, and how many of the phases directly inside are said alike
  const outer = new Map<number, number>();
  const alike = new Map<number, number>();
  const open: number[] = [];
  for (const i of phases) {
    while (open.length && (track[open.at(-1)!] !== track[i] || start[open.at(-1)!]! + dur[open.at(-1)!]! <= start[i]!))
      open.pop();
    const around = open.at(-1);
    if (around !== undefined && words[name[around]!] === words[name[i]!]) {
      outer.set(i, around);
      alike.set(around, (alike.get(around) ?? 0) + 1);
    }
    open.push(i);
  }
  const twins = new Set([...outer].filter(([, o]) => alike.get(o) === 1).map(([i]) => i));
  if (!twins.size) return raw;
  const kept = new Uint32Array(raw.count - twins.size);
  let k = 0;
  for (let i = 0; i < raw.count; i++) if (!twins.has(i)) kept[k++] = i;
  const folded = raw.rows(kept, -Infinity, Infinity, raw.problems);
  folded.notes.push(...raw.notes);
  return folded;
}
