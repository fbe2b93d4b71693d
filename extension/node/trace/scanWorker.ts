// Worker entry for the two-thread reads of large traces: the first half of a read, merged and built here
// (scanner.ts, readPlainParallel), or the second half of a skim (skimRead.ts, skimHalves).
import { parentPort, workerData } from 'node:worker_threads';
import { runFirstHalfWorker, type FirstHalfJob, type WorkerPort } from './scanner.ts';
import { runSkimWorker, type SkimJob } from './skimRead.ts';

const job = workerData as FirstHalfJob | SkimJob;
const post = (message: unknown, transfer?: ArrayBuffer[]): void => parentPort?.postMessage(message, transfer ?? []);
if ('skim' in job) void runSkimWorker(job, post);
else void runFirstHalfWorker(job, listening());

/** This worker's port, its messages queued until received (a first half's worker answers requests in turn). */
function listening(): WorkerPort {
  const received: unknown[] = [];
  let waiting: ((message: unknown) => void) | null = null;
  parentPort?.on('message', (message: unknown) => {
    if (waiting) {
      waiting(message);
      waiting = null;
    } else received.push(message);
  });
  return {
    post,
    receive: () =>
      received.length > 0
        ? Promise.resolve(received.shift())
        : new Promise((resolve) => {
            waiting = resolve;
          }),
  };
}
