/**
 * The runs one process has in flight, counted by who they are for (an environment, the user behind it), so that
 * no environment and no user takes every runner or slot of the process: a job over its share goes back to its
 * queue instead (the caller puts it back). Counted and checked at once, with no wait in between, so that the
 * runners of a process never pass a share together.
 */
export class RunShares {
  private readonly runsOf = new Map<string, number>();

  /** `share()`: the runs one holder may have at once. */
  constructor(private readonly share: () => number) {}

  /** The holders of a run: its environment, and its user when it has one. */
  static holdersOf(environmentId: number, userId: number | null | undefined): string[] {
    return [`environment:${environmentId}`, ...(typeof userId === 'number' ? [`user:${userId}`] : [])];
  }

  /** Runs `work` counted for `holders`, or answers false at once when one of them already has its share. */
  async within(holders: readonly string[], work: () => Promise<void>): Promise<boolean> {
    const share = this.share();
    if (holders.some((holder) => (this.runsOf.get(holder) ?? 0) >= share)) return false;
    for (const holder of holders) this.runsOf.set(holder, (this.runsOf.get(holder) ?? 0) + 1);
    try {
      await work();
    } finally {
      for (const holder of holders) {
        const left = (this.runsOf.get(holder) ?? 1) - 1;
        if (left > 0) this.runsOf.set(holder, left);
        else this.runsOf.delete(holder);
      }
    }
    return true;
  }
}
