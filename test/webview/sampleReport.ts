// A report for the webview tests: a real report's shape with given numbers, its graph break at a given file.
import type { Report } from '../../extension/shared/report.ts';

export function sampleReport(breakFile: string): Report {
  const timing = (medianMs: number, spreadPct: number) => ({
    medianMs,
    minMs: medianMs * 0.95,
    maxMs: medianMs * 1.05,
    spreadPct,
    rounds: [medianMs],
    callsPerRound: 30,
    method: 'cuda-events',
  });
  return {
    schemaVersion: '1.0',
    runner: { version: '0.1.0' },
    createdAt: '2026-11-22T11:00:00Z',
    status: 'ok',
    error: null,
    environment: {
      python: '3.12',
      torch: '2.11.0',
      device: 'cuda',
      deviceName: 'NVIDIA H100 80GB HBM3',
      platform: 'linux',
    },
    target: { kind: 'sample', name: 'mlp' },
    settings: {},
    eager: { timing: timing(0.114, 3.1), trace: 'eager.trace.json', kernelsPerStep: 7 },
    modes: [
      {
        mode: 'default',
        status: 'ok',
        error: null,
        compileSeconds: 2.1,
        timing: timing(0.312, 4.2),
        speedup: 0.363,
        trace: 'default.trace.json',
        kernelsPerStep: 8,
        compiler: {
          graphCount: 2,
          graphBreaks: [{ reason: 'print() call', location: { file: breakFile, line: 57 }, userStack: [] }],
          recompiles: [],
        },
      },
    ],
    recommendation: {
      mode: null,
      verdict: 'stay-eager',
      reason: 'Stay eager: compiled is slower than eager at this size.',
    },
  };
}
