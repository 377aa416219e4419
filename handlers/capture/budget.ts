/**
 * Capture's memory budget: the bytes that requests in flight hold while their bodies are read, inflated,
 * parsed and stored, counted across every request of the process.
 *
 * Why a budget rather than a per-request limit alone: a 25 KB gzip can inflate to 25 MiB, and a request is
 * cheap to send; without a shared count, fifty such requests at once hold fifty times the per-request limit,
 * and their parsed events several times that. With it, memory is bounded whatever arrives: a request that
 * does not fit waits (its socket paused, so TCP pushes back on the sender) until earlier ones finish, and
 * after `maxWaitMs` is answered 503 with `Retry-After`, which the SDKs retry. A single request larger than the
 * whole budget still runs, beside small ones only, so the budget never refuses what the size limits accept.
 */
import type { ApiError } from '../../db/core/errors.js';
import { captureErrors } from './errors.js';

/** What an ordinary capture request holds at most (a batch of a few hundred events). */
const SMALL_REQUEST_BYTES = 1024 * 1024;

interface Waiter {
  bytes: number;
  /** What the asking lease already holds: a request alone in the budget may outgrow it. */
  alreadyHeld: number;
  grant: () => void;
  refuse: (error: ApiError) => void;
  timer: NodeJS.Timeout;
}

export class MemoryBudget {
  private used = 0;
  private readonly waiters: Waiter[] = [];
  /** Highest `used` seen (for /_metrics and the tests). */
  peak = 0;
  /**
   * How many requests may do the work of a large payload at once (inflating it off the main thread, then
   * reading its events in slices), as a budget of that many units. Memory alone would let a dozen floods
   * inflate side by side, and the event loop would then give each of them a slice before any small request.
   */
  readonly largeWork: MemoryBudget | null;
  /**
   * The buffers large work inflates into, one per turn at large work at most, kept for the next: a new one per
   * request left tens of megabytes of freed buffers waiting for the garbage collector in every worker.
   */
  private readonly spareBuffers: Buffer[] = [];

  constructor(
    readonly capacityBytes: number,
    readonly maxWaitMs: number,
    largeWorkAtOnce: number | null = null,
  ) {
    this.largeWork = largeWorkAtOnce === null ? null : new MemoryBudget(largeWorkAtOnce, maxWaitMs);
  }

  get inUse(): number {
    return this.used;
  }

  /** A buffer of at least `bytes` (a spare one when it is large enough), for a request that has its turn at large work. */
  takeBuffer(bytes: number): Buffer {
    const index = this.spareBuffers.findIndex((buffer) => buffer.length >= bytes);
    return index === -1 ? Buffer.allocUnsafe(bytes) : this.spareBuffers.splice(index, 1)[0]!;
  }

  /**
   * Keeps a buffer for the next large request, once its request is answered: one per turn at most, the largest
   * seen (so that they soon fit any payload).
   */
  giveBackBuffer(buffer: Buffer): void {
    const turns = this.largeWork?.capacityBytes ?? 0;
    if (this.spareBuffers.length < turns) {
      this.spareBuffers.push(buffer);
      return;
    }
    let smallest = -1;
    this.spareBuffers.forEach((spare, index) => {
      if (spare.length < buffer.length && (smallest === -1 || spare.length < this.spareBuffers[smallest]!.length)) smallest = index;
    });
    if (smallest !== -1) this.spareBuffers[smallest] = buffer;
  }

  /** A lease that starts empty; grow it as the request holds more, release it once answered. */
  lease(): BudgetLease {
    return new BudgetLease(this);
  }

  /** Takes `bytes` now when they fit (or nothing else is held); otherwise waits in turn, or refuses after maxWaitMs. */
  acquire(bytes: number, alreadyHeld = 0): Promise<void> | null {
    if (bytes <= 0) return null;
    // Small requests (single events, ordinary batches) pass waiting large ones when they fit: they are done in
    // moments, and a queue of floods must not hold up an SDK's ordinary traffic.
    if ((this.waiters.length === 0 || bytes <= SMALL_REQUEST_BYTES) && this.fits(bytes, alreadyHeld)) {
      this.take(bytes);
      return null;
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        bytes,
        alreadyHeld,
        grant: resolve,
        refuse: reject,
        timer: setTimeout(() => {
          const index = this.waiters.indexOf(waiter);
          if (index !== -1) this.waiters.splice(index, 1);
          reject(captureErrors.busy());
          this.wake(); // the next in line may fit where this larger one did not
        }, this.maxWaitMs),
      };
      this.waiters.push(waiter);
    });
  }

  release(bytes: number): void {
    if (bytes <= 0) return;
    this.used = Math.max(0, this.used - bytes);
    this.wake();
  }

  /**
   * A request that fits; or one larger than the whole budget when no other large one holds any of it (what
   * others hold then is small requests' coming and going: waiting for none at all would never end under load).
   */
  private fits(bytes: number, alreadyHeld: number): boolean {
    if (this.used + bytes <= this.capacityBytes) return true;
    return alreadyHeld + bytes > this.capacityBytes && this.used - alreadyHeld <= this.capacityBytes / 8;
  }

  private take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.peak) this.peak = this.used;
  }

  /** Grants waiters in arrival order while they fit (first come, first served: a large one is not starved). */
  private wake(): void {
    while (this.waiters.length > 0 && this.fits(this.waiters[0]!.bytes, this.waiters[0]!.alreadyHeld)) {
      const waiter = this.waiters.shift()!;
      clearTimeout(waiter.timer);
      this.take(waiter.bytes);
      waiter.grant();
    }
  }
}

/** What one request holds of the budget. */
export class BudgetLease {
  private held = 0;
  private released = false;

  /** Its turn at large work (MemoryBudget.largeWork), once taken. */
  private largeWork: BudgetLease | null = null;
  /** The buffer its large work inflates into, given back with the lease. */
  private buffer: Buffer | null = null;

  constructor(private readonly budget: MemoryBudget) {}

  get bytes(): number {
    return this.held;
  }

  /** Waits for the request's turn at large work (at once when it has it already); rejects 503 like grow. */
  turnForLargeWork(): Promise<void> | null {
    if (this.released || this.largeWork || !this.budget.largeWork) return null;
    this.largeWork = this.budget.largeWork.lease();
    return this.largeWork.grow(1);
  }

  /**
   * `bytes` of a buffer to inflate into, kept by the budget between large requests once this one is answered
   * (nothing may hold on to it then: what is read from it is copied out). Needs a turn at large work.
   */
  bufferForLargeWork(bytes: number): Buffer {
    if (!this.largeWork || this.released) return Buffer.allocUnsafe(bytes);
    this.buffer ??= this.budget.takeBuffer(bytes);
    if (this.buffer.length < bytes) this.buffer = Buffer.allocUnsafe(bytes);
    return this.buffer.subarray(0, bytes);
  }

  /** Holds `bytes` more: null when granted at once, else a promise that resolves when granted (or rejects 503). */
  grow(bytes: number): Promise<void> | null {
    if (this.released || bytes <= 0) return null;
    const granted = this.budget.acquire(bytes, this.held);
    if (granted === null) {
      this.held += bytes;
      return null;
    }
    return granted.then(() => {
      if (this.released) this.budget.release(bytes);
      else this.held += bytes;
    });
  }

  /** Gives back what it holds beyond `bytes` (a body that turned out smaller than announced). */
  shrinkTo(bytes: number): void {
    if (this.released || bytes >= this.held) return;
    this.budget.release(this.held - bytes);
    this.held = bytes;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.release(this.held);
    this.held = 0;
    this.largeWork?.release();
    if (this.buffer) this.budget.giveBackBuffer(this.buffer);
    this.buffer = null;
  }
}
