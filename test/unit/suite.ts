// Every unit file in one process (scripts/test.sh runs this file): one Node and one tsx load for the directory, not
// one per file (~0.8 CPU-s each), and the modules they share compiled once; each file in a describe of its own
// (fileSuites.ts). One file alone: node --import tsx --test test/unit/FILE.test.ts.
import { describeEachFile } from '../fileSuites.ts';

describeEachFile(__dirname);
