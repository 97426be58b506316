/**
 * A lease kept alive by a timer rather than by progress. Work done in child processes at the
 * lowest priority may make no progress for minutes on a saturated machine while its holder is
 * alive and well; only the holder's death (no more beats) lets the lease run out.
 *
 * One heartbeat serves every lease of a worker: each beat renews them all in one statement and
 * reports those that were no longer this worker's (taken over after a pause longer than the lease).
 */
export interface HeartbeatOptions {
  /** Time between beats: a third of the lease leaves two beats' margin. */
  intervalMs: number;
  /** Renews the leases of these ids; resolves with those still held. */
  renew(ids: readonly string[]): Promise<readonly string[]>;
  /** A lease found lost: its work must not commit. */
  lost(id: string): void;
  /** A beat that could not reach the database (the next one tries again). */
  failed?(error: unknown): void;
  /** After each beat, with the ids renewed (tests wait on it). */
  beat?(ids: readonly string[]): void;
}

export class Heartbeat {
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;

  constructor(private readonly options: HeartbeatOptions) {}

  /** Keeps this lease alive until `release(id)`. */
  hold(id: string): void {
    this.held.add(id);
    if (this.timer) return;
    this.timer = setInterval(() => void this.beatNow(), this.options.intervalMs);
    // A lease alone must not keep the process alive.
    this.timer.unref();
  }

  release(id: string): void {
    this.held.delete(id);
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Stops beating (shutdown); the leases held run out unless released otherwise. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
  }

  private async beatNow(): Promise<void> {
    // A beat still waiting for the database (PGlite busy): the next one would only queue behind it.
    if (this.beating || this.held.size === 0) return;
    const ids = [...this.held];
    this.beating = (async () => {
      try {
        const renewed = new Set(await this.options.renew(ids));
        for (const id of ids) if (!renewed.has(id) && this.held.has(id)) this.options.lost(id);
        this.options.beat?.([...renewed]);
      } catch (error) {
        this.options.failed?.(error);
      } finally {
        this.beating = null;
      }
    })();
    await this.beating;
  }
}
