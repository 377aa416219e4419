/**
 * The engine's notion of now: which intervals have ended, heartbeats and finish times. Tests replace it (a
 * manual clock in-process; an offset for processes, HEDGEROW_CLOCK_OFFSET_MS) so that they never wait for real
 * intervals to pass.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The system clock moved by `offsetMs` (test-only: a process test pretends to be in the future). */
export function offsetClock(offsetMs: number): Clock {
  return offsetMs === 0 ? systemClock : { now: () => new Date(Date.now() + offsetMs) };
}

/** A clock that moves only when told. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(instant: Date): void {
    this.current = instant.getTime();
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
