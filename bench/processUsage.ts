// Resident memory and CPU time of the processes a code-server session runs, read from /proc (Linux): the extension
// host (which reads the trace and posts it), code-server's own server processes (which carry the messages to the
// browser over a websocket), and the headless browser (workbench and webview renderers, GPU process). CPU time
// tells where an open's work went on a shared machine, where wall time also counts the other jobs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface ProcessUsage {
  pid: number;
  parent: number;
  command: string;
  home: string;
  residentMb: number;
  peakMb: number;
  cpuSeconds: number;
}

/** Linux's USER_HZ: /proc/PID/stat counts CPU time in these ticks. */
const TICKS_PER_SECOND = 100;

function processes(): ProcessUsage[] {
  const found: ProcessUsage[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      // after the command name (which may hold spaces, in parentheses): state is field 3, utime 14 and stime 15
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      found.push({
        pid: Number(entry),
        parent: field('PPid'),
        command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' '),
        home: /(?:^|\0)HOME=([^\0]*)/.exec(environ)?.[1] ?? '',
        residentMb: field('VmRSS') / 1024,
        peakMb: field('VmHWM') / 1024,
        cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
      });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

export interface SessionUsage {
  /** the extension host's resident memory now and its peak so far (MB) */
  extensionHost: { residentMb: number; peakMb: number };
  /** all of the session's browser processes together, resident now (MB) */
  browserMb: number;
  /** CPU seconds used so far (every thread, live processes only) by the extension host, code-server's other processes, and the browser */
  cpu: { extensionHost: number; server: number; browser: number };
}

/** The usage of the session whose HOME is `home` (see test/e2e/codeServer.ts: its browser profile is home/chromium). */
export function sessionUsage(home: string): SessionUsage {
  const all = processes();
  const host = all.find((p) => p.home === home && p.command.includes('extensionHost'));
  if (!host) throw new Error(`no extension host found for the session in ${home}`);
  const browser = new Set(
    all
      .filter((p) => p.command.includes(path.join(home, 'chromium')) && !p.command.includes('--type='))
      .map((p) => p.pid),
  );
  for (let grown = true; grown;) {
    grown = false;
    for (const p of all)
      if (!browser.has(p.pid) && browser.has(p.parent)) {
        browser.add(p.pid);
        grown = true;
      }
  }
  const cpu = (keep: (p: ProcessUsage) => boolean): number =>
    all.filter(keep).reduce((sum, p) => sum + p.cpuSeconds, 0);
  return {
    extensionHost: { residentMb: host.residentMb, peakMb: host.peakMb },
    browserMb: all.filter((p) => browser.has(p.pid)).reduce((sum, p) => sum + p.residentMb, 0),
    cpu: {
      extensionHost: host.cpuSeconds,
      server: cpu(
        (p) => p.home === home && p.pid !== host.pid && !browser.has(p.pid) && p.command.includes('code-server'),
      ),
      browser: cpu((p) => browser.has(p.pid)),
    },
  };
}
