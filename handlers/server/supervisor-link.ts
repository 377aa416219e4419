/**
 * A worker's side of the supervisor (handlers/server/supervisor.ts): what the primary tells it about the workers (for
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

/** From the primary to a worker: answers to its questions, and the primary's own questions ('metrics-snapshot'). */
export type PrimaryMessage =
  | { hedgerow: 'workers'; status: WorkersStatus }
  | { hedgerow: 'rate-limit'; id: number; wait: number }
  | { hedgerow: 'metrics'; id: number; text: string }
  | { hedgerow: 'metrics-snapshot'; id: number };

/** From a worker to the primary: its questions ('rate-limit', 'metrics'), and its answers ('metrics-snapshot'). */
export type WorkerMessage =
  | { hedgerow: 'rate-limit'; id: number; key: string }
  | { hedgerow: 'metrics'; id: number }
  | { hedgerow: 'metrics-snapshot'; id: number; text: string };

/** From the job engine's process (handlers/server/jobs-process.ts) to the primary: its engine runs. */
export type JobsMessage = { hedgerow: 'jobs-ready' };

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
  private readonly pendingMetrics = new Map<number, (text: string) => void>();
  /** This worker's own `/_metrics` text (set by createApp), which the primary adds up with the others'. */
  localMetrics: () => string = () => '';
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
      } else if (message.hedgerow === 'metrics') {
        const resolve = this.pendingMetrics.get(message.id);
        this.pendingMetrics.delete(message.id);
        resolve?.(message.text);
      } else if (message.hedgerow === 'metrics-snapshot' && this.channel.connected) {
        this.channel.send({ hedgerow: 'metrics-snapshot', id: message.id, text: this.localMetrics() });
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

  /** Every worker's counters together, as the primary gathers them; this worker's alone without a primary. */
  metrics(): Promise<string> {
    if (!this.channel.connected) return Promise.resolve(this.localMetrics());
    const id = this.nextId++;
    return new Promise<string>((resolve) => {
      this.pendingMetrics.set(id, resolve);
      this.channel.send({ hedgerow: 'metrics', id });
    });
  }

  /** Answers the requests still waiting for the primary on its own (the channel closed under them). */
  disconnected(): void {
    for (const [id, { key, resolve }] of this.pending) {
      this.pending.delete(id);
      resolve(this.alone.take(key));
    }
    for (const [id, resolve] of this.pendingMetrics) {
      this.pendingMetrics.delete(id);
      resolve(this.localMetrics());
    }
  }
}
