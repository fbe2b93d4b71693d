// Worker entry for the two-thread reads of large traces: the second half of a scan (scanner.ts, scanPlainParallel)
// or of a skim (skimRead.ts, skimHalves).
import { parentPort, workerData } from 'node:worker_threads';
import { runHalfWorker, type HalfJob } from './scanner.ts';
import { runSkimWorker, type SkimJob } from './skimRead.ts';

const job = workerData as HalfJob | SkimJob;
const post = (message: unknown, transfer?: ArrayBuffer[]): void => parentPort?.postMessage(message, transfer ?? []);
void ('skim' in job ? runSkimWorker(job, post) : runHalfWorker(job, post));
