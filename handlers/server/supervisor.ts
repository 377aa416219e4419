/**
 * The primary process of `npm start` (node:cluster): it keeps a number of worker processes serving HTTP on the
 * shared port and the job engine's process running, starts again one that dies (waiting longer each time one
 * dies soon after it started, so that a process that cannot start does not spin), tells the workers how many of
 * them are serving (for `/_health`), gathers their metrics, and on stop lets each one finish what it has in
 * flight, restarting none.
 */
import { fork, type ChildProcess } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import type { ConnectionBudget } from '../../db/queries/connection-budget.js';
import { combineWorkerMetrics } from '../capture/metrics.js';
import { isHedgerowMessage, type JobsMessage, type PrimaryMessage, type WorkerMessage, type WorkersStatus } from './supervisor-link.js';

/** How long the primary waits for each worker's counters when gathering `/_metrics`. */
const METRICS_WAIT_MS = 2_000;

/**
 * The V8 heap (MB) each HTTP worker may grow to. Left to itself, V8 sizes a heap by the machine's memory (gigabytes
 * here) and lets garbage pile up far past 512 MB before a full collection: a burst of answers built and then
 * refused or sent left a worker past 512 MB resident while the answers it held stayed within their budget. With
 * this limit V8 collects before its heap nears it, and a worker stays under 512 MB: this heap, the answers being
 * sent (whose buffers live outside it, up to HEDGEROW_ANSWER_MEMORY_MB), code and native memory. What a worker
 * holds alive within its budgets (answers while they are built, its share of capture) fits in it. An operator's
 * own --max-old-space-size (in NODE_OPTIONS or node's arguments) is kept.
 */
export const WORKER_HEAP_MB = 384;

/** The node arguments of an HTTP worker: the primary's, with the heap limit unless one is set already. */
export function workerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const limited = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].some((arg) => /^--max[-_]old[-_]space[-_]size(=|$)/.test(arg));
  return limited ? [...execArgv] : [...execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`];
}

export interface WorkerPlan {
  count: number;
  /** How the count was reached, for the start-up log. */
  reason: string;
}

/**
 * How many workers to run: the number asked for (else one per CPU), but no more than the database's free
 * sessions allow, each worker opening up to `perWorker` of them; at least one.
 */
export function planWorkers(input: { requested: number | undefined; cpus: number; budget: ConnectionBudget; perWorker: number }): WorkerPlan {
  const { requested, cpus, budget, perWorker } = input;
  const wanted = requested ?? cpus;
  const wantedWhy = requested === undefined ? `one per CPU (${cpus})` : `HEDGEROW_WORKERS=${requested}`;
  const free = Math.max(0, budget.max - budget.reserved - budget.used);
  const affordable = Math.floor(free / perWorker);
  const sessions =
    `max_connections ${budget.max} - reserved ${budget.reserved} - in use ${budget.used} = ${free} free sessions, ` +
    `up to ${perWorker} per worker: room for ${affordable}`;
  if (wanted <= affordable) return { count: wanted, reason: `${wantedWhy}; ${sessions}` };
  const count = Math.max(1, affordable);
  return {
    count,
    reason: `${wantedWhy}, but ${sessions}${affordable < 1 ? '; starting one anyway, its pools may wait for sessions' : ''}`,
  };
}

export interface SupervisorOptions {
  count: number;
  /** Environment each worker is forked with (on top of the primary's): the database URL and the port. */
  workerEnv: Record<string, string>;
  /** The job engine's process (handlers/server/jobs-process.ts) and its environment; null: none. */
  jobs?: { module: URL | string; env: Record<string, string> } | null;
  logger: Logger;
  /** A worker that served at least this long before it died is started again at once. */
  healthyAfterMs?: number;
  /** First wait before starting again a worker that died sooner; doubles up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** How long a stopping worker may take to finish before it is killed. */
  stopTimeoutMs?: number;
  /** Workers that died before serving, in a row while none ever served, before the supervisor gives up. */
  maxFailedStarts?: number;
}

/** One place for a worker: the process in it now, and how the last ones fared. */
interface Slot {
  worker: Worker | null;
  listening: boolean;
  startedAt: number;
  backoffMs: number;
  timer: NodeJS.Timeout | null;
}

/** The job engine's place: as a worker's, `ready` once its engine runs. */
interface JobsSlot {
  child: ChildProcess | null;
  ready: boolean;
  startedAt: number;
  backoffMs: number;
  timer: NodeJS.Timeout | null;
}

export class Supervisor {
  private readonly slots: Slot[] = [];
  private jobsSlot: JobsSlot | null = null;
  private restarts = 0;
  private stopping = false;
  private everListened = false;
  private failedStarts = 0;
  private readonly options: Required<SupervisorOptions>;
  private firstListening: { resolve: () => void; reject: (error: Error) => void } | null = null;
  private readonly snapshots = new Map<number, (workerId: number, text: string) => void>();
  private nextSnapshotId = 1;

  constructor(options: SupervisorOptions) {
    this.options = {
      jobs: null,
      healthyAfterMs: 10_000,
      backoffMs: 250,
      maxBackoffMs: 15_000,
      stopTimeoutMs: 60_000,
      maxFailedStarts: 5,
      ...options,
    };
  }

  get status(): WorkersStatus {
    return { configured: this.slots.length, alive: this.slots.filter((slot) => slot.listening).length, restarts: this.restarts };
  }

  /**
   * Forks every worker; resolves once all of them listen (the job engine's process is forked then, never keeping
   * the API from serving), rejects if they cannot start at all.
   */
  async start(): Promise<void> {
    cluster.on('message', (worker, message) => this.onMessage(worker, message));
    cluster.on('listening', (worker) => this.onListening(worker));
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    cluster.setupPrimary({ execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS) });
    const allListening = new Promise<void>((resolve, reject) => (this.firstListening = { resolve, reject }));
    for (let index = 0; index < this.options.count; index += 1) {
      const slot: Slot = { worker: null, listening: false, startedAt: 0, backoffMs: 0, timer: null };
      this.slots.push(slot);
      this.fork(slot);
    }
    await allListening;
    if (this.options.jobs && !this.stopping) {
      this.jobsSlot = { child: null, ready: false, startedAt: 0, backoffMs: 0, timer: null };
      this.forkJobs(this.jobsSlot);
    }
  }

  /**
   * Asks every worker (each finishes its in-flight requests) and the job engine (it hands back its runs in flight)
   * to stop, and waits until all have exited. From the first moment of a stop, no process that exits is
   * started again, whatever made it exit.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    const processes: Array<{ process: ChildProcess; role: string }> = [];
    for (const slot of [...this.slots, ...(this.jobsSlot ? [this.jobsSlot] : [])]) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
    }
    for (const slot of this.slots) if (slot.worker && !slot.worker.isDead()) processes.push({ process: slot.worker.process, role: 'worker' });
    const jobs = this.jobsSlot?.child;
    if (jobs && jobs.exitCode === null && jobs.signalCode === null) processes.push({ process: jobs, role: 'jobs' });
    await Promise.all(processes.map(({ process, role }) => this.stopProcess(process, role)));
  }

  private stopProcess(child: ChildProcess, role: string): Promise<void> {
    return new Promise<void>((resolve) => {
      const kill = setTimeout(() => {
        this.options.logger.error({ role, pid: child.pid }, 'process did not stop in time; killing it');
        child.kill('SIGKILL');
      }, this.options.stopTimeoutMs);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  private forkJobs(slot: JobsSlot): void {
    const jobs = this.options.jobs!;
    slot.timer = null;
    slot.ready = false;
    slot.startedAt = Date.now();
    const child = fork(jobs.module, [], { env: { ...process.env, ...jobs.env } });
    slot.child = child;
    this.options.logger.info({ pid: child.pid }, 'job engine process started');
    child.on('message', (message: unknown) => {
      if (isHedgerowMessage<JobsMessage>(message) && message.hedgerow === 'jobs-ready') slot.ready = true;
    });
    child.on('error', (error) => this.options.logger.error({ err: error, pid: child.pid }, 'job engine process error'));
    child.once('exit', (code, signal) => this.onJobsExit(slot, child, code, signal));
  }

  /** The job engine's process is started again as a worker is, but never given up on: the API serves without it. */
  private onJobsExit(slot: JobsSlot, child: ChildProcess, code: number | null, signal: string | null): void {
    if (slot.child !== child) return;
    const wasReady = slot.ready;
    slot.child = null;
    slot.ready = false;
    if (this.stopping) return;
    const livedMs = Date.now() - slot.startedAt;
    slot.backoffMs = this.nextBackoff(slot.backoffMs, wasReady, livedMs);
    this.options.logger.warn(
      { pid: child.pid, code, signal, livedMs, restartInMs: slot.backoffMs },
      'job engine process died; starting another',
    );
    slot.timer = setTimeout(() => this.forkJobs(slot), slot.backoffMs);
  }

  /** A process that served a while is replaced at once; one that died soon after it started waits longer each time. */
  private nextBackoff(previousMs: number, wasReady: boolean, livedMs: number): number {
    if (wasReady && livedMs >= this.options.healthyAfterMs) return 0;
    return Math.min(this.options.maxBackoffMs, Math.max(this.options.backoffMs, previousMs * 2));
  }

  private fork(slot: Slot): void {
    slot.timer = null;
    slot.listening = false;
    slot.startedAt = Date.now();
    slot.worker = cluster.fork(this.options.workerEnv);
    this.options.logger.info({ worker: slot.worker.id, pid: slot.worker.process.pid }, 'worker started');
  }

  private slotOf(worker: Worker): Slot | undefined {
    return this.slots.find((slot) => slot.worker === worker);
  }

  private onListening(worker: Worker): void {
    const slot = this.slotOf(worker);
    if (!slot) return;
    slot.listening = true;
    this.everListened = true;
    this.failedStarts = 0;
    this.broadcast();
    if (this.firstListening && this.slots.every((each) => each.listening)) {
      this.firstListening.resolve();
      this.firstListening = null;
    }
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    const slot = this.slotOf(worker);
    if (!slot) return;
    const wasListening = slot.listening;
    slot.worker = null;
    slot.listening = false;
    if (this.stopping) return;
    const livedMs = Date.now() - slot.startedAt;
    if (!wasListening && !this.everListened && (this.failedStarts += 1) >= this.options.maxFailedStarts) {
      this.options.logger.fatal({ worker: worker.id, code, signal }, 'workers keep dying before they serve; giving up');
      this.firstListening?.reject(new Error(`${this.failedStarts} workers in a row died before serving (last: code ${code}, signal ${signal})`));
      this.firstListening = null;
      this.broadcast();
      return;
    }
    slot.backoffMs = this.nextBackoff(slot.backoffMs, wasListening, livedMs);
    this.options.logger.warn(
      { worker: worker.id, pid: worker.process.pid, code, signal, livedMs, restartInMs: slot.backoffMs },
      'worker died; starting another',
    );
    this.restarts += 1;
    this.broadcast();
    slot.timer = setTimeout(() => this.fork(slot), slot.backoffMs);
  }

  private onMessage(worker: Worker, message: unknown): void {
    if (!isHedgerowMessage<WorkerMessage>(message)) return;
    if (message.hedgerow === 'metrics') {
      const id = message.id;
      void this.gatherMetrics().then((text) => this.send(worker, { hedgerow: 'metrics', id, text }));
    } else if (message.hedgerow === 'metrics-snapshot') {
      this.snapshots.get(message.id)?.(worker.id, message.text);
    }
  }

  /**
   * Every serving worker's `/_metrics`, added up (handlers/capture/metrics.ts), with the supervisor's own
   * gauges. A worker that does not answer within METRICS_WAIT_MS (it is dying) is left out.
   */
  private async gatherMetrics(): Promise<string> {
    const workers = this.slots.flatMap((slot) => (slot.worker && slot.listening ? [slot.worker] : []));
    const id = this.nextSnapshotId++;
    const texts: Array<{ id: number; text: string }> = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(finish, METRICS_WAIT_MS);
      function finish(): void {
        clearTimeout(timer);
        resolve();
      }
      this.snapshots.set(id, (workerId, text) => {
        texts.push({ id: workerId, text });
        if (texts.length === workers.length) finish();
      });
      if (workers.length === 0) finish();
      for (const worker of workers) this.send(worker, { hedgerow: 'metrics-snapshot', id });
    });
    this.snapshots.delete(id);
    texts.sort((a, b) => a.id - b.id);
    const { configured, alive, restarts } = this.status;
    const own = [
      '# HELP hedgerow_workers_configured Worker processes the supervisor keeps running.',
      '# TYPE hedgerow_workers_configured gauge',
      `hedgerow_workers_configured ${configured}`,
      '# HELP hedgerow_workers_alive Worker processes serving now.',
      '# TYPE hedgerow_workers_alive gauge',
      `hedgerow_workers_alive ${alive}`,
      '# HELP hedgerow_worker_restarts_total Workers started again after one died.',
      '# TYPE hedgerow_worker_restarts_total counter',
      `hedgerow_worker_restarts_total ${restarts}`,
    ];
    return `${combineWorkerMetrics(texts)}${own.join('\n')}\n`;
  }

  /** Tells every worker how many are serving. */
  private broadcast(): void {
    const message: PrimaryMessage = { hedgerow: 'workers', status: this.status };
    for (const slot of this.slots) if (slot.worker) this.send(slot.worker, message);
  }

  private send(worker: Worker, message: PrimaryMessage): void {
    if (!worker.isConnected()) return;
    // A worker dying meanwhile closes the channel under the message; its exit is handled on its own.
    worker.send(message, (error: Error | null) => {
      if (error) this.options.logger.debug({ err: error, worker: worker.id }, 'message to a worker not delivered');
    });
  }
}
