// One profile run at a time: a second request is refused with a message rather than queued, because two
// runs on one GPU would each distort the other's timings.

export class RunSlot {
  private busyWith: string | null = null;

  /** Takes the slot for `what`, or returns the message to show when a run is already going. */
  take(what: string): { ok: true; release: () => void } | { ok: false; message: string } {
    if (this.busyWith !== null) {
      return {
        ok: false,
        message: `A Compile Lens run (${this.busyWith}) is already in progress: wait for it or cancel it from its notification. Two runs at once would distort each other's timings.`,
      };
    }
    this.busyWith = what;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (!released) this.busyWith = null;
        released = true;
      },
    };
  }
}
