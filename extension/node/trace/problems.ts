/** A trace that cannot be read at all; `byte` is the offset in the (decompressed) JSON where known. */
export class TraceError extends Error {
  constructor(
    message: string,
    readonly byte?: number,
  ) {
    super(message);
    this.name = 'TraceError';
  }
}

/** Counts one kind of problem; reported once at the end with its first byte position. */
export class ProblemLog {
  readonly problems = new Map<string, { count: number; firstByte: number }>();
  add(what: string, byte: number): void {
    const seen = this.problems.get(what);
    if (seen) seen.count++;
    else this.problems.set(what, { count: 1, firstByte: byte });
  }
  messages(): string[] {
    return [...this.problems].map(
      ([what, { count, firstByte }]) => `${count} event${count === 1 ? '' : 's'}: ${what} (first at byte ${firstByte})`,
    );
  }
}
