// Reads the head of a trace file (plain or gzip: the first HEAD_BYTES of its text, decompressing no further) and
// parses it with shared/trace/traceHead.ts: which rank, host and time base the trace is, without scanning it.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { parseTraceHead, type TraceHead } from '../../shared/trace/traceHead.ts';

/** Bytes of (decompressed) text read from the start of a file: kineto's header is well under 4 KiB. */
export const HEAD_BYTES = 64 * 1024;

/** Reads a trace file's head (gunzipped when it is gzip) and parses it. */
export async function readTraceHead(file: string): Promise<TraceHead> {
  return parseTraceHead(await headText(file), file);
}

async function headText(file: string): Promise<string> {
  const handle = await open(file, 'r');
  let bytes: Buffer;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    bytes = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.toString('utf8');
  return gunzipHead(file);
}

/** The first HEAD_BYTES of a gzip file's content, decompressing no further. */
function gunzipHead(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const input = createReadStream(file);
    const gunzip = createGunzip();
    const done = (): void => {
      input.destroy();
      gunzip.destroy();
      resolve(Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString('utf8'));
    };
    gunzip.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= HEAD_BYTES) done();
    });
    gunzip.on('end', done);
    // a truncated gzip still gives its head
    gunzip.on('error', (error) => (length > 0 ? done() : reject(error)));
    input.on('error', reject);
    input.pipe(gunzip);
  });
}
