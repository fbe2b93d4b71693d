// The "Compiler" tree: per mode (a script's: per region), what Dynamo and Inductor did — compiled frames, each compile of a frame
// (the first, then recompiles with their guard failures), each compile's generated code, guards and FX graph (the
// guard that failed before a recompile), the kernels each compile generated with the ATen ops they fused and the
// source lines those came from, graph breaks, guards, caches, CUDA graphs and compile time.
// Pure data; the host turns it into TreeItems.
import { attemptName, compileName } from './compileNames.ts';
import { regionLabel } from './regionDigest.ts';
import { explanationsOf } from './glossary.ts';
import { placeLabel } from '../shared/sourcePlace.ts';
import { formatSeconds, plural } from './numbers.ts';
import { formatUsPerStep, kernelLensTitle } from './kernelLinks.ts';
import { generatedKernelWords, kernelOps } from './kernelNames.ts';
import type {
  CompileArtifacts,
  CompilerInsight,
  ModeResult,
  Recompile,
  Region,
  RegionCall,
  Report,
  SourceLocation,
} from '../shared/report.ts';

/** A file of the report directory that a node opens read-only: generated code, guards, FX graph. */
export interface ArtifactTarget {
  kind: 'code' | 'guards' | 'fxGraph';
  /** relative to the report directory */
  path: string;
  /** 1-based line to open at */
  line?: number;
  /** the line is a guard that failed: highlight it, saying this */
  highlight?: string;
}

export interface CompilerTreeNode {
  label: string;
  description?: string;
  tooltip?: string;
  location?: SourceLocation;
  /** opened instead of `location` when both are set */
  artifact?: ArtifactTarget;
  children: CompilerTreeNode[];
}

// "model.py:12"; a notebook's "explore.ipynb cell 3, line 5"
const where = (location: SourceLocation | null | undefined): string =>
  location ? placeLabel(location) : 'unknown line';
const leaf = (
  label: string,
  description?: string,
  location?: SourceLocation | null,
  tooltip?: string,
): CompilerTreeNode => ({
  label,
  children: [],
  ...(description ? { description } : {}),
  ...(location ? { location } : {}),
  ...(tooltip ? { tooltip } : {}),
});

/** Compile ids are "frame/attempt": 0/0 is frame 0's first compile, 0/1 its first recompile. */
const frameOf = (compileId: string | null | undefined): string => (compileId ?? '?').split('/')[0]!;

function kernelNodes(c: CompilerInsight, compileId: string | null): CompilerTreeNode[] {
  const outputCode = c.compiles?.find((a) => a.compileId === compileId)?.outputCode;
  return (c.kernels ?? [])
    .filter((k) => (k.compileId ?? null) === compileId)
    .map((k) => ({
      // the kernel in the runner's words (schema 1.28), as the timeline and its details say it; Inductor's name in
      // the tooltip. A report before them: by its place under its compile's node
      label: k.nameText ?? generatedKernelWords(k.name, null, null) ?? k.name,
      description: [
        kernelOps(k),
        k.usPerStep !== null && k.usPerStep !== undefined ? formatUsPerStep(k.usPerStep, c.kernelSteps ?? null) : null,
      ]
        .filter(Boolean)
        .join(' · '),
      tooltip: `${k.name}: ${kernelLensTitle(k)}`,
      ...(k.sourceLines[0] ? { location: k.sourceLines[0] } : {}),
      children: [
        ...(outputCode && k.codeLine
          ? [
              {
                label: 'Generated code',
                description: `line ${k.codeLine}`,
                artifact: { kind: 'code', path: outputCode, line: k.codeLine },
                children: [],
              } satisfies CompilerTreeNode,
            ]
          : []),
        ...k.sourceLines.map((line) => leaf(where(line), line.code ?? undefined, line)),
      ],
    }));
}

/** A recompile said in the user's terms where the runner could, then PyTorch's own words quoted. */
function recompileWords(r: Recompile): { said: string; tooltip: string } {
  const said = r.explanation?.what ?? r.reason;
  const quote = said === r.reason ? [] : [`PyTorch's words: ${r.reason}`];
  return { said, tooltip: [said, ...quote, r.trigger].filter(Boolean).join('\n') };
}

/** "Generated code", "Guards (N)", "FX graph" of one compile and, for a recompile, the guard of each earlier compile
 *  that failed: named by its function, said as the recompile's sentence, the guard itself in the tooltip and file. */
function artifactNodes(a: CompileArtifacts | undefined, c: CompilerInsight): CompilerTreeNode[] {
  if (!a) return [];
  const nodes: CompilerTreeNode[] = [];
  if (a.outputCode)
    nodes.push({
      label: 'Generated code',
      description: 'Inductor output code',
      artifact: { kind: 'code', path: a.outputCode },
      children: [],
    });
  if (a.guards)
    nodes.push({
      label: `Guards (${a.guardCount ?? '?'})`,
      description: 'checked before each call',
      artifact: { kind: 'guards', path: a.guards },
      children: [],
    });
  if (a.fxGraph)
    nodes.push({
      label: 'FX graph',
      description: 'captured by Dynamo',
      artifact: { kind: 'fxGraph', path: a.fxGraph },
      children: [],
    });
  const recompile = c.recompiles.find((r) => r.compileId === a.compileId);
  for (const failed of a.failedGuards) {
    // the runner's sentence leads ("input 'x' changed size in dimension 0 from 8 to 16"); PyTorch's guard, a line of a long dump whose
    // sizes sit off-screen (reportB D10), behind a child that opens the dump at it
    const said = recompile?.explanation?.what ?? failed.reason;
    const why = `Why ${compileName(c.frames, failed.compileId)} was not reused`;
    nodes.push({
      label: said,
      description: why,
      tooltip: withTerms(`${why}: ${said}`),
      children: [
        {
          label: "raw guard (PyTorch's words)",
          ...(failed.guards && failed.line
            ? { description: `${failed.guards.split('/').pop()!} line ${failed.line}` }
            : {}),
          tooltip: withTerms(
            [
              `PyTorch's guard that failed (Dynamo's compile id ${failed.compileId ?? '?'}): ${failed.guard ?? '(not found in its guard list)'}`,
              // the user's line beside PyTorch's quotation, whose own comment is where Dynamo first used the value,
              // often PyTorch's code (schema 1.36, report/guard_text.py; review 8 A13)
              ...(failed.sourceText ? [failed.sourceText] : []),
              ...(said === failed.reason ? [] : [`PyTorch's reason: ${failed.reason}`]),
            ].join('\n'),
          ),
          ...(failed.guards
            ? {
                artifact: {
                  kind: 'guards',
                  path: failed.guards,
                  ...(failed.line ? { line: failed.line, highlight: failed.reason } : {}),
                },
              }
            : {}),
          children: [],
        },
      ],
    });
  }
  return nodes;
}

/** A tooltip's text, then the explanation of each compiler term in it (glossary.ts). */
function withTerms(text: string): string {
  return [text, ...explanationsOf(text)].filter(Boolean).join('\n');
}

function framesNode(c: CompilerInsight, callOf: Map<string, RegionCall>): CompilerTreeNode | null {
  const frames = c.frames ?? [];
  if (!frames.length) return null;
  const byFrame = new Map<string, typeof frames>();
  for (const frame of frames)
    byFrame.set(frameOf(frame.compileId), [...(byFrame.get(frameOf(frame.compileId)) ?? []), frame]);
  const children = [...byFrame.values()].map((compiles) => {
    const first = compiles[0]!;
    // the frame as the runner names it (schema 1.28: its first compile's nameText, "forward", "DistributedDataParallel
    // at ddp_train.py:77" for PyTorch's wrapper of the user's module, "helper (in Python's contextlib.py)"), at its line
    const name = compileName(c.frames, `${frameOf(first.compileId)}/0`);
    return {
      label: first.location ? `${name} (${where(first.location)})` : name,
      description: `${plural(compiles.length, 'compile')}, ${formatSeconds(compiles.reduce((sum, f) => sum + f.seconds, 0))}`,
      ...(first.location ? { location: first.location } : {}),
      children: compiles.map((compile) => {
        const recompile = c.recompiles.find((r) => r.compileId === compile.compileId);
        const graph = c.cudaGraphs?.find((g) => g.compileId === compile.compileId);
        const words = recompile ? recompileWords(recompile) : null;
        // a call that compiled several frames (a graph break splits it) says their sum: this frame's share of it, so
        // that "178 ms" here and the panel's "Call 0 compiled (239 ms)" read as the two quantities they are (D30); the
        // sum said as the compiling in that call, not the call's time (review 17Y Y4: "of call 0's 2.52 s" beside the
        // compare's "compile 2.52 s" read as one region's compile at two values)
        const call = callOf.get(compile.compileId ?? '');
        const shared = call && (call.compileIds?.length ?? 0) > 1 && call.compileSeconds;
        return {
          label: attemptName(compile.compileId),
          description: [
            shared
              ? `${formatSeconds(compile.seconds)} of the ${formatSeconds(shared)} compiling in call ${call.index}`
              : formatSeconds(compile.seconds),
            words ? `recompiled: ${words.said}` : null,
            graph ? `CUDA graph ${graph.status}` : null,
          ]
            .filter(Boolean)
            .join(' · '),
          tooltip: withTerms(
            [words?.tooltip, graph?.reason, `Dynamo's compile id ${compile.compileId ?? '?'}`]
              .filter(Boolean)
              .join('\n'),
          ),
          ...(recompile?.location ? { location: recompile.location } : {}),
          children: [
            ...artifactNodes(
              c.compiles?.find((a) => a.compileId === compile.compileId),
              c,
            ),
            ...kernelNodes(c, compile.compileId),
          ],
        } satisfies CompilerTreeNode;
      }),
    };
  });
  return { label: `Compiled frames (${children.length})`, children };
}

function modeNode(mode: ModeResult, callOf: Map<string, RegionCall>): CompilerTreeNode {
  // the mode as the panel says it (schema 1.33: "mode='default'"); a report before it by its name
  const label = mode.modeText ?? mode.mode;
  if (mode.status === 'error' || !mode.compiler) {
    return {
      label,
      description: 'failed',
      ...(mode.error ? { tooltip: `${mode.error.message}\n${mode.error.fix}` } : {}),
      children: [],
    };
  }
  const node = insightNode(mode.compiler, mode.compileSeconds, callOf);
  return { ...node, label };
}

/** A region of a script by its name as the panel's heading says it ("Net", at a_print.py:16), its compiler record
 *  under it (review 5C P10: "forward (a_print.py:10)" under a root "script", the panel's "Net — a_print.py:16"). */
function regionNode(region: Region, c: CompilerInsight, callOf: Map<string, RegionCall>): CompilerTreeNode {
  const node = insightNode(c, null, callOf);
  const at = region.location;
  // a torchrun job's region: its counts as the runner says them, each with whose it is (s29: the merged record's
  // "1 graph, 3 breaks, 2 recompiles" were rank 0's graphs and breaks beside rank 1's recompiles)
  const counted = byRank(c) && region.facts ? region.facts.join(', ') : node.description;
  return {
    ...node,
    label: regionLabel(region),
    description: at ? `${where(at)} · ${counted}` : counted,
    ...(at ? { location: at } : {}),
  };
}

/** A torchrun job's merged record: its breaks carry each rank's count (schema 1.35), its `count`s are one rank's. */
const byRank = (c: CompilerInsight): boolean => c.graphBreaks.some((b) => b.rankCounts !== undefined);

/** A compiler record's frames, breaks, recompiles, guards, caches and compile time; its counts the description. */
function insightNode(
  c: CompilerInsight,
  firstCallSeconds: number | null,
  callOf: Map<string, RegionCall>,
): Omit<CompilerTreeNode, 'label'> & { description: string } {
  const children: CompilerTreeNode[] = [];
  const frames = framesNode(c, callOf);
  if (frames) children.push(frames);
  // the breaks counted as the facts and the report panel count them: each listed break's count (one that broke in
  // several compiles, several times), review 5C M9
  const breaks = c.graphBreaks.reduce((n, b) => n + (b.count ?? 1), 0);
  // a torchrun job's: no one count over them, each rank's at its line (the runner's countText)
  const ranked = byRank(c);
  children.push({
    label: ranked ? 'Graph breaks, by rank' : `Graph breaks (${breaks})`,
    children: c.graphBreaks.map((b) => {
      const site = b.location ?? b.userStack[b.userStack.length - 1] ?? null;
      const said = ranked && b.countText ? `${b.countText}: ${b.reason}` : b.reason;
      return leaf(where(site), said, site, [b.reason, b.hint].filter(Boolean).join('\n'));
    }),
  });
  children.push({
    label: `Recompiles (${c.recompiles.length})`,
    children: c.recompiles.map((r) => {
      const words = recompileWords(r);
      return leaf(
        where(r.location),
        words.said,
        r.location,
        [words.tooltip, r.inTimedRegion ? 'happened inside the timed region' : null].filter(Boolean).join('\n'),
      );
    }),
  });
  if (c.guardCount !== null && c.guardCount !== undefined) children.push(leaf(`Guards: ${c.guardCount}`));
  const cache = Object.entries(c.cache ?? {}).map(
    ([name, counts]) => `${name} ${counts['hit'] ?? 0} hit / ${counts['miss'] ?? 0} miss`,
  );
  if (cache.length) children.push(leaf('Caches', cache.join(', ')));
  const phases = Object.entries(c.compileSeconds ?? {});
  if (phases.length) {
    children.push({
      label: 'Compile time',
      ...(firstCallSeconds !== null ? { description: `${formatSeconds(firstCallSeconds)} first call` } : {}),
      children: phases.sort((a, b) => b[1] - a[1]).map(([phase, s]) => leaf(phase, formatSeconds(s))),
    });
  }
  const summary = `${plural(c.graphCount, 'graph')}, ${plural(breaks, 'break')}, ${plural(c.recompiles.length, 'recompile')}`;
  return { description: summary, children };
}

export function buildCompilerTree(report: Report): CompilerTreeNode[] {
  // script mode: the region's call each compile ran in (its compile ids)
  const callOf = new Map(
    (report.regions ?? []).flatMap((r) => r.calls.flatMap((call) => (call.compileIds ?? []).map((id) => [id, call]))),
  );
  // a script's regions each by its name, as the panel heads them (the script's own mode entry is their records
  // together, named "script"); a report whose regions carry no record of their own, by its modes
  const regions = report.target.kind === 'script' ? (report.regions ?? []) : [];
  const recorded = regions.flatMap((r) => (r.compiler ? [regionNode(r, r.compiler, callOf)] : []));
  return recorded.length ? recorded : report.modes.map((mode) => modeNode(mode, callOf));
}
