/**
 * A worker's side of the supervisor (handlers/server/supervisor.ts): what the primary tells it about the workers (for
 * `/_health`), and every worker's metrics together (for `/_metrics`). Messages go over the IPC channel that
 * node:cluster opens to each worker. The rate limit is not here: it is counted in the database, once for every
 * worker of every host (handlers/server/rate-limit.ts).
 */

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
  | { hedgerow: 'metrics'; id: number; text: string }
  | { hedgerow: 'metrics-snapshot'; id: number };

/** From a worker to the primary: its question ('metrics'), and its answers ('metrics-snapshot'). */
export type WorkerMessage =
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

export class SupervisorLink {
  /** What the primary last said; it says it before the worker's first request can arrive. */
  workers: WorkersStatus = { configured: 0, alive: 0, restarts: 0 };
  private readonly pendingMetrics = new Map<number, (text: string) => void>();
  /** This worker's own `/_metrics` text (set by createApp), which the primary adds up with the others'. */
  localMetrics: () => string = () => '';
  private nextId = 1;

  constructor(
    readonly worker: { id: number; pid: number },
    private readonly channel: PrimaryChannel,
  ) {
    channel.on('message', (message) => {
      if (!isHedgerowMessage<PrimaryMessage>(message)) return;
      if (message.hedgerow === 'workers') this.workers = message.status;
      else if (message.hedgerow === 'metrics') {
        const resolve = this.pendingMetrics.get(message.id);
        this.pendingMetrics.delete(message.id);
        resolve?.(message.text);
      } else if (message.hedgerow === 'metrics-snapshot' && this.channel.connected) {
        this.channel.send({ hedgerow: 'metrics-snapshot', id: message.id, text: this.localMetrics() });
      }
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

  /** Answers the metrics requests still waiting for the primary on its own (the channel closed under them). */
  disconnected(): void {
    for (const [id, resolve] of this.pendingMetrics) {
      this.pendingMetrics.delete(id);
      resolve(this.localMetrics());
    }
  }
}
