// Resident memory of the processes a code-server session runs, read from /proc (Linux): the extension host
// (which reads the trace and posts it) and the headless browser (workbench and webview renderers, GPU process).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProcessMemory { pid: number; parent: number; command: string; home: string; residentMb: number; peakMb: number }

function processes(): ProcessMemory[] {
  const found: ProcessMemory[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      found.push({
        pid: Number(entry), parent: field('PPid'), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '),
        home: /(?:^|\0)HOME=([^\0]*)/.exec(environ)?.[1] ?? '', residentMb: field('VmRSS') / 1024, peakMb: field('VmHWM') / 1024,
      });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

export interface SessionMemory {
  /** the extension host's resident memory now and its peak so far (MB) */
  extensionHost: { residentMb: number; peakMb: number };
  /** all of the session's browser processes together, resident now (MB) */
  browserMb: number;
}

/** The memory of the session whose HOME is `home` (see test/e2e/codeServer.ts: its browser profile is home/chromium). */
export function sessionMemory(home: string): SessionMemory {
  const all = processes();
  const host = all.find((p) => p.home === home && p.command.includes('extensionHost'));
  if (!host) throw new Error(`no extension host found for the session in ${home}`);
  const browser = new Set(all.filter((p) => p.command.includes(path.join(home, 'chromium')) && !p.command.includes('--type=')).map((p) => p.pid));
  for (let grown = true; grown;) {
    grown = false;
    for (const p of all) if (!browser.has(p.pid) && browser.has(p.parent)) { browser.add(p.pid); grown = true; }
  }
  return {
    extensionHost: { residentMb: host.residentMb, peakMb: host.peakMb },
    browserMb: all.filter((p) => browser.has(p.pid)).reduce((sum, p) => sum + p.residentMb, 0),
  };
}
