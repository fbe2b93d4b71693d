// Turns a report into what the editor shows: one finding per graph break / recompile site / CUDA-graph skip, with
// the reason, what it cost and a fix — a region that ran no compiled code first — and, for a torchrun job, the ranks
// it happened on and where the ranks diverged. Reasons and fixes are the runner's (it owns their texts): this only
// displays them. Pure, so diagnostics, hovers, the CLI's `check` and tests share one reading.
import { explanationsOf } from './glossary.ts';
import { formatMs } from './numbers.ts';
import type {
  CudaGraphStatus,
  Divergence,
  GraphBreak,
  ModeResult,
  NoCompiledCode,
  PerfHint,
  QuickFix,
  Recompile,
  RecompileSite,
  Region,
  Report,
  SourceLocation,
} from '../shared/report.ts';

export type FindingKind = 'no-compiled-code' | 'graph-break' | 'cuda-graphs' | 'recompile' | 'perf-hint' | 'divergence';

export interface Finding {
  kind: FindingKind;
  file: string;
  line: number;
  /** notebooks: index of the cell; `line` is then within that cell */
  cell: number | null;
  reason: string;
  hint: string | null;
  /** PyTorch's graph-break id (e.g. GB0059) or the finding kind */
  code: string;
  docUrl: string | null;
  fix: string | null;
  /** modes in which this site broke / recompiled */
  modes: string[];
  /** those modes as the runner writes them (a mode's and a region's modeText, schema 1.33: "mode='default'"), each
   *  once; the hover's tag. A script's own compile ("script") is none */
  modesText: string[];
  /** graph breaks: what they cost, the runner's words (schema 1.24); before them, the fields listed */
  cost: string | null;
  /** the call that triggered a recompile, in words */
  trigger: string | null;
  /** what the user's code or calls did, in their terms (the runner's explanation of a guard failure, and for
   * recompiles that recur at one line the sizes or values they went through) */
  what: string | null;
  /** PyTorch's own words for it (a graph break's reason, the first recompile's failed guard), shown as a quotation
   *  behind `what` where the runner put it in the user's terms */
  quote: string | null;
  /** recompiles at this site with this guard pattern, or graph breaks at this site with this reason (schema 1.14; 1
   * before), the most in any one mode */
  count: number;
  /** that count said, the runner's (schema 1.25: "7 recompiles at this line", the hover's title); null: said once, or
   * a report before it */
  countText: string | null;
  /** a torchrun job's graph break: each rank's count and whose, the runner's countText (schema 1.35, from its
   *  rankCounts: "3 graph breaks at this line on ranks 0 and 2, 4 on ranks 1 and 3"); `count` is then the headline
   *  rank's alone */
  countByRank?: string;
  /** a torchrun job: the ranks it happened on (a divergence: the ranks that did what the others did not); null for one process */
  ranks: number[] | null;
  /** a torchrun job: how many ranks it had; null for one process */
  worldSize: number | null;
  /** the mechanical edits the editor offers as Quick Fixes (the runner's: editor/quickFixes.ts applies them): the
   * explanation's quickFix, then its quickFixes (schema 1.22: mark_dynamic beside dynamic=True) */
  quickFixes: QuickFix[];
  /** the user edited a file its run speaks for since that run (editor/findingStore.ts): said with BEFORE_EDIT until
   *  the next run */
  beforeEdit?: true;
}

/** What the editor says of a report older than the user's edit (reportC N8: a finding the Quick Fix had fixed stayed,
 *  unmarked): the Problems message's end, the CodeLens beside the answer, the report panel's banner. An editor state,
 *  not the report's: the runner cannot know of the edit. */
export const BEFORE_EDIT = 'from the run before your edit: re-run to check';

/** BEFORE_EDIT on the lens before the answer (its tooltip: BEFORE_EDIT in full): short (reportC R5: "from the run
 *  before your edit: re-run to chec" pushed the verdict out of view). With the answer after it, the line is no longer
 *  than the answer after "▶ Compile & Profile Script | " was, which now comes last. */
export const BEFORE_EDIT_LENS = 'before your edit: re-run';

const GRAPH_BREAK_DOCS = 'https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html#graph-breaks';
const RECOMPILE_DOCS = 'https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html#recompilations';
const CUDA_GRAPH_DOCS = 'https://docs.pytorch.org/docs/stable/torch.compiler_cudagraph_trees.html';

/** The edits an explanation offers, its first Quick Fix first. */
function offered(explanation: { quickFix?: QuickFix | null; quickFixes?: QuickFix[] } | null | undefined): QuickFix[] {
  return [...(explanation?.quickFix ? [explanation.quickFix] : []), ...(explanation?.quickFixes ?? [])];
}

function siteOf(location: SourceLocation | null, stack: SourceLocation[]): SourceLocation | null {
  return location ?? stack[stack.length - 1] ?? null;
}

type FindingOf = Omit<Finding, 'modes' | 'modesText' | 'worldSize'>;

function addFinding(
  into: Map<string, Finding>,
  finding: FindingOf,
  mode: string,
  said: string | null,
  worldSize: number | null,
): void {
  const key = `${finding.kind}\0${finding.file}\0${finding.cell}\0${finding.line}\0${finding.reason}`;
  const existing = into.get(key);
  if (existing) {
    if (!existing.modes.includes(mode)) existing.modes.push(mode);
    if (said !== null && !existing.modesText.includes(said)) existing.modesText.push(said);
    if (finding.count > existing.count || (finding.countByRank && !existing.countByRank))
      Object.assign(existing, { count: finding.count, countText: finding.countText, countByRank: finding.countByRank });
    if (existing.ranks && finding.ranks)
      existing.ranks = [...new Set([...existing.ranks, ...finding.ranks])].sort((a, b) => a - b);
    return;
  }
  into.set(key, { ...finding, modes: [mode], modesText: said === null ? [] : [said], worldSize });
}

/** What a mode's graph breaks cost: the runner's words (schema 1.24), else its graphs and time outside them listed. */
function breakCost(mode: Pick<ModeResult, 'compiler' | 'outsideGraphsMsPerStep'>): string | null {
  const compiler = mode.compiler;
  if (!compiler) return null;
  if (compiler.breakCost) return compiler.breakCost;
  const outside = mode.outsideGraphsMsPerStep;
  return `graphs ${compiler.graphCount}${outside != null ? ` · outside the graphs ${formatMs(outside)} per call` : ''}`;
}

function graphBreakFinding(
  item: GraphBreak,
  mode: Pick<ModeResult, 'compiler' | 'outsideGraphsMsPerStep'>,
): FindingOf | null {
  const site = siteOf(item.location, item.userStack);
  if (!site) return null;
  return {
    kind: 'graph-break',
    file: site.file,
    line: site.line,
    cell: site.cell ?? null,
    reason: item.reason,
    hint: item.hint ?? null,
    code: item.gbId ?? 'graph-break',
    docUrl: item.docUrl ?? GRAPH_BREAK_DOCS,
    fix: item.explanation?.fix ?? null,
    cost: breakCost(mode),
    trigger: null,
    what: item.explanation?.what ?? null,
    quote: item.reason,
    count: item.count ?? 1,
    countText: item.countText ?? null,
    ...(item.rankCounts && item.countText ? { countByRank: item.countText } : {}),
    ranks: item.ranks ?? null,
    quickFixes: offered(item.explanation),
  };
}

function recompileFinding(item: Recompile | RecompileSite): FindingOf | null {
  // a torchrun job's recompile on some ranks is said once, by the divergence at the line that made the call (s28)
  if (!item.location || ('inDivergence' in item && item.inDivergence)) return null;
  const count = typeof item.count === 'number' ? item.count : 1;
  // a recurring site reads as its pattern (self.calls == N), a single recompile as its own reason
  const reason = count > 1 && item.pattern ? item.pattern : item.reason;
  return {
    kind: 'recompile',
    file: item.location.file,
    line: item.location.line,
    cell: item.location.cell ?? null,
    reason,
    hint: item.hint ?? null,
    code: 'recompile',
    docUrl: RECOMPILE_DOCS,
    fix: item.explanation?.fix ?? null,
    cost: null,
    trigger: item.trigger ?? null,
    what: item.explanation?.what ?? null,
    quote: item.reason,
    count,
    countText: typeof item.countText === 'string' ? item.countText : null, // a site's (schema 1.25)
    ranks: item.ranks ?? null,
    quickFixes: offered(item.explanation),
  };
}

/** A divergence between ranks, at the user's line it names (those without a line are in the report and CLI only). */
function divergenceFinding(item: Divergence): FindingOf | null {
  if (!item.location) return null;
  const fix = item.details?.['fix'];
  return {
    kind: 'divergence',
    file: item.location.file,
    line: item.location.line,
    cell: item.location.cell ?? null,
    reason: item.message,
    hint: null,
    code: `rank-${item.kind}`,
    docUrl: null,
    fix: typeof fix === 'string' ? fix : null,
    cost: null,
    trigger: null,
    what: null,
    quote: null,
    count: 1,
    countText: null,
    ranks: item.ranks,
    quickFixes: item.quickFixes ?? [], // the recompile sites' it says (s28)
  };
}

/** A CUDA-graph skip at the line PyTorch names (the mutating op, the CPU tensor's use): those without a line are in
 * the report, the CLI and the compiler tree. */
function cudaGraphFinding(item: CudaGraphStatus): FindingOf | null {
  const skip = item.explanation;
  if (item.status !== 'skipped' || !skip?.location) return null;
  return {
    kind: 'cuda-graphs',
    file: skip.location.file,
    line: skip.location.line,
    cell: skip.location.cell ?? null,
    reason: skip.what,
    hint: item.reason ?? null,
    code: `cudagraphs-${skip.kind}`,
    docUrl: CUDA_GRAPH_DOCS,
    fix: skip.fix ?? null,
    cost: null,
    trigger: null,
    what: skip.cost,
    quote: null,
    count: 1,
    countText: null,
    ranks: null,
    quickFixes: [],
  };
}

/** A region that ran no compiled code, at the line that stopped it (else its torch.compile line): the region's first finding. */
function noCompiledFinding(region: Region, nothing: NoCompiledCode): FindingOf | null {
  const site = nothing.location ?? region.location;
  if (!site) return null;
  return {
    kind: 'no-compiled-code',
    file: site.file,
    line: site.line,
    cell: site.cell ?? null,
    reason: nothing.headline ?? region.answer?.sentence ?? nothing.cause, // 1.21: the answer's sentence for it
    hint: null,
    code: nothing.gbId ?? 'no-compiled-code',
    docUrl: GRAPH_BREAK_DOCS,
    fix: nothing.fix ?? null,
    cost: null,
    trigger: null,
    what: null,
    quote: null,
    count: 1,
    countText: null,
    ranks: null,
    quickFixes: [],
  };
}

/** One of PyTorch's performance hints at the user's line it concerns (those without a line are in the report only). */
function perfHintFinding(item: PerfHint): FindingOf | null {
  if (!item.location) return null;
  return {
    kind: 'perf-hint',
    file: item.location.file,
    line: item.location.line,
    cell: item.location.cell ?? null,
    reason: item.what,
    hint: item.message,
    code: `perf-hint-${item.kind}`,
    docUrl: null,
    fix: item.fix ?? null,
    cost: null,
    trigger: null,
    what: null,
    quote: null,
    count: 1,
    countText: null,
    ranks: null,
    quickFixes: [],
  };
}

const KIND_ORDER: Record<FindingKind, number> = {
  'no-compiled-code': 0,
  'graph-break': 1,
  'cuda-graphs': 2,
  recompile: 3,
  'perf-hint': 4,
  divergence: 5,
};

/**
 * Every graph break and recompile site of the report, one per source line and reason, with the modes it hit. A
 * script report's regions add theirs (labelled as the panel heads them, "Model — model.py:12"), merged with the script entry's where they are the same site.
 */
export function collectFindings(report: Report): Finding[] {
  // the runner's label (schema 1.33); a report before it, its id and name
  const regionName = (region: Region): string => region.label ?? `${region.id} ${region.name}`;
  const found = new Map<string, Finding>();
  const worldSize = report.ranks && report.ranks.length > 0 ? report.ranks.length : null;
  // said as the runner writes the mode (schema 1.33); a report before it: "mode default", as those reports were shown
  const sources = [
    ...report.modes.map((mode) => ({
      label: mode.mode,
      said: mode.mode === 'script' ? null : (mode.modeText ?? `mode ${mode.mode}`),
      mode,
    })),
    ...(report.regions ?? []).map((region) => ({
      label: regionName(region),
      said: region.modeText ?? null,
      mode: { compiler: region.compiler ?? null },
    })),
  ];
  for (const region of report.regions ?? []) {
    const finding = region.noCompiledCode ? noCompiledFinding(region, region.noCompiledCode) : null;
    if (finding) addFinding(found, finding, regionName(region), region.modeText ?? null, worldSize);
  }
  for (const { label, said, mode } of sources) {
    for (const item of mode.compiler?.cudaGraphs ?? []) {
      const finding = cudaGraphFinding(item);
      if (finding) addFinding(found, finding, label, said, worldSize);
    }
    for (const item of mode.compiler?.perfHints ?? []) {
      const finding = perfHintFinding(item);
      if (finding) addFinding(found, finding, label, said, worldSize);
    }
    // the runner lists the breaks one per line and fix (s28: breakSites, DDP's two calls at one line one site); an
    // older report each reason at a line
    for (const item of mode.compiler?.breakSites ?? mode.compiler?.graphBreaks ?? []) {
      const finding = graphBreakFinding(item, mode);
      if (finding) addFinding(found, finding, label, said, worldSize);
    }
    // schema 1.4 groups recompiles that recur at one site; older reports list each one
    for (const item of mode.compiler?.recompileSites ?? mode.compiler?.recompiles ?? []) {
      const finding = recompileFinding(item);
      if (finding) addFinding(found, finding, label, said, worldSize);
    }
  }
  for (const item of report.divergence ?? []) {
    const finding = divergenceFinding(item);
    if (finding) addFinding(found, finding, 'ranks', null, worldSize);
  }
  // a region that ran no compiled code is said first; then by place
  return withoutRestatedBreaks([...found.values()]).sort(
    (a, b) =>
      Number(b.kind === 'no-compiled-code') - Number(a.kind === 'no-compiled-code') ||
      a.file.localeCompare(b.file) ||
      (a.cell ?? -1) - (b.cell ?? -1) ||
      a.line - b.line ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind],
  );
}

/**
 * The graph break that stopped a region from running any compiled code is that region's finding: said once, at its
 * line, as "No compiled code ran" with the break's fix and Quick Fixes (one Problems row, one hover for one cause).
 */
function withoutRestatedBreaks(findings: Finding[]): Finding[] {
  const stopped = findings.filter((f) => f.kind === 'no-compiled-code' && f.code !== 'no-compiled-code');
  const sameCause = (f: Finding, by: Finding): boolean =>
    f.kind === 'graph-break' && f.code === by.code && f.file === by.file && f.cell === by.cell && f.line === by.line;
  return findings.filter((f) => {
    const by = stopped.find((s) => sameCause(f, s));
    if (!by) return true;
    by.fix ??= f.fix; // its reason stays the runner's sentence (no quote: an edit says its lines again)
    by.quickFixes = [...by.quickFixes, ...f.quickFixes.filter((q) => !by.quickFixes.some((k) => k.title === q.title))];
    return false;
  });
}

/** "0, 1", "0-2, 4, 6-9": three or more consecutive ranks as a range (a job of 64 ranks stays one line). */
export function rankRanges(ranks: readonly number[]): string {
  const sorted = [...new Set(ranks)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j - i >= 2 ? `${sorted[i]}-${sorted[j]}` : sorted.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return parts.join(', ');
}

/** "on ranks 0, 1", "on rank 1 only", "on all 64 ranks"; null for one process. */
export function rankText(finding: Pick<Finding, 'ranks' | 'worldSize'>): string | null {
  const { ranks, worldSize } = finding;
  if (!ranks?.length || !worldSize || worldSize < 2) return null;
  if (ranks.length === 1) return `on rank ${ranks[0]} only`;
  if (worldSize > 2 && new Set(ranks).size === worldSize) return `on all ${worldSize} ranks`;
  return `on ranks ${rankRanges(ranks)}`;
}

const KIND_TITLE = {
  'no-compiled-code': 'No compiled code ran',
  'graph-break': 'Graph break',
  'cuda-graphs': 'CUDA graphs skipped',
  recompile: 'Recompile',
  'perf-hint': "PyTorch's performance hint",
  divergence: 'Ranks diverged',
} as const;

/** What a finding says happened: the runner's words for a graph break or recompile where it has them (what broke,
 *  what changed and through which sizes), PyTorch's otherwise; PyTorch's own words then stay in the hover. */
export function findingText(finding: { kind: FindingKind; what?: string | null; reason: string }): string {
  return (finding.kind === 'graph-break' || finding.kind === 'recompile') && finding.what
    ? finding.what
    : finding.reason;
}

/** One line for the Problems panel and `compile-lens check`: a site's recompiles are one line with their count. */
/** A Problems row shows its message's start: the note of a report older than the edit leads it. */
const beforeEdit = (finding: Finding): string => (finding.beforeEdit ? `${BEFORE_EDIT} — ` : '');

export function findingMessage(finding: Finding): string {
  // the runner's sentence begins "No compiled code ran:"
  if (finding.kind === 'no-compiled-code') return `${beforeEdit(finding)}${plainSaid(finding.reason)}`;
  return `${beforeEdit(finding)}${KIND_TITLE[finding.kind]}${countTag(finding)}: ${plainSaid(findingText(finding))}`;
}

/** After a finding's kind, in Problems and the CLI: its count and ranks, " ×3 (on ranks 0, 1)", before the sentence (a
 *  sentence's full stop then "(on ranks 1, 3)" read as a stray ". (", review 5C); a torchrun job's break as each rank
 *  counted it, the runner's words (s29: "×3 (on all 4 ranks)" over rank rows of 4): " (3 graph breaks at this line on
 *  ranks 0 and 2, 4 on ranks 1 and 3)". A divergence's sentence names its ranks itself. */
export function countTag(finding: Pick<Finding, 'kind' | 'count' | 'ranks' | 'worldSize' | 'countByRank'>): string {
  if (finding.kind === 'divergence') return '';
  if (finding.countByRank) return ` (${finding.countByRank})`;
  const ranks = rankText(finding);
  return `${finding.count > 1 ? ` ×${finding.count}` : ''}${ranks ? ` (${ranks})` : ''}`;
}

/** The runner's sentence as plain text (Problems, the CLI): its `code` quoted as compilers quote code in a message,
 *  not shown with literal backticks (review 6C Y5). */
export const plainSaid = (text: string): string => text.replace(/`([^`]+)`/g, "'$1'");

/**
 * Markdown for the hover over the finding's line: what Problems does not say. VS Code shows the line's diagnostic
 * (findingMessage: the finding's sentence) above this hover, so the hover leads with the fix and never says the
 * sentence again (reportA N4). Strings from the report are escaped: they are data.
 */
export function findingHover(finding: Finding): string {
  const esc = escapeMarkdown;
  const lines: string[] = [];
  // the count as the runner says it (schema 1.25); a report before it: as Problems says it
  const title =
    finding.countByRank ??
    (finding.kind !== 'divergence' && finding.count > 1
      ? (finding.countText ?? `${KIND_TITLE[finding.kind]} ×${finding.count}`)
      : KIND_TITLE[finding.kind]);
  // a divergence's sentence names its ranks itself, and a count by rank its ranks; modes as the panel says them
  // ("mode='default'")
  const modeTag = finding.modesText.length ? finding.modesText.join(', ') : null;
  const ranks = finding.countByRank ? null : rankText(finding);
  const tags = finding.kind === 'divergence' ? [] : [modeTag, ranks].filter((t): t is string => t !== null);
  lines.push(`**Compile Lens — ${title}**${tags.length ? ` (${tags.map(esc).join(', ')})` : ''}`);
  // said in the user's terms where the runner could (PyTorch's words then close the hover, quoted), else PyTorch's
  const said = findingText(finding);
  const quoted = said !== finding.reason && finding.quote !== null;
  // the answer first: what to do, then why and what it cost
  if (finding.fix) lines.push('', `**Fix:** ${escapeSaid(finding.fix)}`);
  // a CUDA-graph skip's `what` is its cost; PyTorch's own message is its hint
  if (finding.what && !quoted && finding.what !== said)
    lines.push('', `**${finding.kind === 'cuda-graphs' ? 'Cost' : 'What happened'}:** ${escapeSaid(finding.what)}`);
  if (finding.trigger) lines.push('', `**Triggered by:** ${esc(finding.trigger)}`);
  // a break the runner explained needs no hint into PyTorch's internals (a Google doc, a config flag): its fix is above
  const explained = finding.kind === 'graph-break' && finding.what !== null;
  if (finding.hint && !explained)
    lines.push(
      '',
      `**${finding.kind === 'cuda-graphs' || finding.kind === 'perf-hint' ? "PyTorch's message" : "PyTorch's hint"}:** ${esc(finding.hint)}`,
    );
  if (finding.kind === 'graph-break' && finding.cost) lines.push('', `**Cost:** ${esc(finding.cost)}`);
  // heading and quote in one block: a heading alone at the hover's fold read as empty (report3A M10)
  if (quoted) lines.push('', `> **PyTorch's words:** ${esc(quotedLine(finding.quote!))}`);
  // the compiler's words used here and in the message above, each in one phrase (glossary.ts)
  const terms = explanationsOf(
    [title, said, quoted ? finding.quote : finding.reason, finding.what, finding.trigger, finding.hint]
      .filter(Boolean)
      .join('\n'),
  );
  if (terms.length) lines.push('', ...terms.map((t) => `- *${esc(t)}*`));
  // PyTorch's code for a graph break (GB0124) said as what it is, as a link to its page
  if (finding.docUrl)
    lines.push(
      '',
      `[${/^GB\d+$/.test(finding.code) ? `PyTorch's graph-break code ${esc(finding.code)}` : `PyTorch's docs on this ${title.toLowerCase()}`}](${finding.docUrl})`,
    );
  return lines.join('\n');
}

/** The most of PyTorch's words a hover quotes: about one line of a hover (review 4A M10: a quotation's second line was
 *  cut in half at the hover's bottom edge). */
const QUOTE_CHARACTERS = 80;

/** PyTorch's words as the hover quotes them: their first line, whole; a longer one its heading before ": " ("Unsupported
 *  Tensor.item() call with capture_scalar_outputs=False …"), else its whole words that fit; "…" where words were left
 *  out (the whole message is in the report, and behind PyTorch's link below). */
export function quotedLine(text: string): string {
  const [first = '', ...rest] = text.trim().split('\n');
  let line = first.trim();
  const cut = rest.some((l) => l.trim()) || line.length > QUOTE_CHARACTERS;
  if (line.length > QUOTE_CHARACTERS) {
    const heading = line.split(': ')[0]!;
    line =
      heading.length <= QUOTE_CHARACTERS
        ? heading
        : line.slice(0, QUOTE_CHARACTERS + 1).replace(/\s+\S*$/, '') || line.slice(0, QUOTE_CHARACTERS);
  }
  return cut ? `${line.replace(/[\s:;,.]+$/, '')} …` : line;
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-!<>|~]/g, (c) => `\\${c}`);
}

/** The runner's sentence for markdown: escaped, but its `code` (the user's own condition, an op) kept as code: a
 *  code span shows its text literally, so nothing in it is read as markup. */
export const escapeSaid = (text: string): string =>
  text
    .split(/`([^`]+)`/)
    .map((part, k) => (k % 2 ? `\`${part}\`` : escapeMarkdown(part)))
    .join('');
