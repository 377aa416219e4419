/**
 * A worker's side of the supervisor (handlers/supervisor.ts): what the primary tells it about the workers (for
 * `/_health`), and the rate limit, which the primary counts for every worker so that a key's budget does not
 * grow with their number. Messages go over the IPC channel that node:cluster opens to each worker.
 */
import { RateLimiter, type RequestBudget } from './rate-limit.js';

export interface WorkersStatus {
  /** Worker processes the supervisor keeps running. */
  configured: number;
  /** Of those, the ones serving now. */
  alive: number;
  /** Workers started again after one died, since the supervisor started. */
  restarts: number;
}

/** From the primary to a worker. */
export type PrimaryMessage =
  | { hedgerow: 'workers'; status: WorkersStatus }
  | { hedgerow: 'rate-limit'; id: number; wait: number };

/** From a worker to the primary. */
export type WorkerMessage = { hedgerow: 'rate-limit'; id: number; key: string };

export function isHedgerowMessage<T extends { hedgerow: string }>(message: unknown): message is T {
  return typeof message === 'object' && message !== null && typeof (message as { hedgerow?: unknown }).hedgerow === 'string';
}

/** The channel to the primary: `process.send` of a forked worker. */
export interface PrimaryChannel {
  send(message: WorkerMessage): void;
  readonly connected: boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export class SupervisorLink implements RequestBudget {
  /** What the primary last said; it says it before the worker's first request can arrive. */
  workers: WorkersStatus = { configured: 0, alive: 0, restarts: 0 };
  private readonly pending = new Map<number, { key: string; resolve: (wait: number) => void }>();
  private nextId = 1;
  /** Counts alone while the primary is gone (the worker is then shutting down). */
  private readonly alone: RateLimiter;

  constructor(
    readonly worker: { id: number; pid: number },
    private readonly channel: PrimaryChannel,
    private readonly perMinute: number,
  ) {
    this.alone = new RateLimiter(perMinute);
    channel.on('message', (message) => {
      if (!isHedgerowMessage<PrimaryMessage>(message)) return;
      if (message.hedgerow === 'workers') this.workers = message.status;
      else if (message.hedgerow === 'rate-limit') {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        waiting?.resolve(message.wait);
      }
    });
  }

  /** The primary's answer for `key` (0: allowed, else the seconds to wait). */
  take(key: string): number | Promise<number> {
    if (this.perMinute <= 0) return 0;
    if (!this.channel.connected) return this.alone.take(key);
    const id = this.nextId++;
    return new Promise<number>((resolve) => {
      this.pending.set(id, { key, resolve });
      this.channel.send({ hedgerow: 'rate-limit', id, key });
    });
  }

  /** Answers the requests still waiting for the primary by counting alone (the channel closed under them). */
  disconnected(): void {
    for (const [id, { key, resolve }] of this.pending) {
      this.pending.delete(id);
      resolve(this.alone.take(key));
    }
  }
}
