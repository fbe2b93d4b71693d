// Worker entry for the two-thread scan of large traces (scanner.ts, scanPlainParallel): reads the file's second half.
import { parentPort, workerData } from 'node:worker_threads';
import { runHalfWorker, type HalfJob } from './scanner.ts';

void runHalfWorker(workerData as HalfJob, (message, transfer) => parentPort?.postMessage(message, transfer ?? []));
