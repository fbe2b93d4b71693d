// The rank timeline's numbers for a folder of rank traces, as the panel shows them: which traces, how they are
// aligned, and per step and rank the step time, communication, overlap, work and the slowest rank.
//   node --import tsx bench/rankSteps.ts DIR      (e.g. the output of bench/rank_traces.py)
import { rankAlignment } from '../extension/shared/trace/ranks.ts';
import { rankStepTable } from '../webview/analysis/rankSteps.ts';
import { formatUs } from '../extension/present/numbers.ts';
import { resolveTimelineSelection } from '../extension/node/timelineSelection.ts';
import { readTimelineSource } from '../extension/node/timelineSource.ts';
import { sentTraces } from '../test/sentTraces.ts';

async function main(): Promise<void> {
  const { source, notes } = await resolveTimelineSelection(process.argv.slice(2));
  for (const note of notes) console.log(`note: ${note}`);
  const panes = (await sentTraces(await readTimelineSource(source))).map((m) => m.pane);
  const alignment = rankAlignment(panes.map((p) => ({ trace: p.trace, rank: p.rank! })));
  console.log(
    alignment.mode === 'absolute'
      ? `one time axis; shifts ${alignment.shiftUs.map((s) => formatUs(s)).join(', ')}`
      : alignment.reason,
  );
  const table = rankStepTable(panes.map((p) => p.trace));
  const labels = panes.map((p) => p.label);
  console.log(`communication measured on: ${table.sides.join(', ')}`);
  for (const row of table.rows) {
    row.ranks.forEach((stat, p) => {
      const cells = stat
        ? [stat.stepUs, stat.commUs, stat.overlappedUs, stat.workUs].map((us) => formatUs(us).padStart(10)).join(' ')
        : '—';
      console.log(`${(p === 0 ? row.label : '').padEnd(16)} ${labels[p]!.padEnd(8)} ${cells}`);
    });
    const slowest = row.slowest;
    console.log(
      `${''.padEnd(16)} slowest: ${slowest ? `${labels[slowest.pane]} +${formatUs(slowest.leadUs)} of work${slowest.even ? ' (even)' : ''}` : '—'}`,
    );
  }
  console.log('columns: step time, communication, overlapped, work');
}

void main();
