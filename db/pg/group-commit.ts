/**
 * Group commit: concurrent writers append to one queue, and the queue is written in one transaction per batch
 * (one statement per table) as soon as the previous batch has committed, or beside it once the queue is large
 * (`overlapFromSize`). Each writer's promise settles when the transaction holding its item commits or fails, so
 * an acknowledgement always means "stored".
 *
 * Why flush eagerly rather than on a timer: with one batch in flight at a time the batch size adapts to the
 * load by itself (everything that arrived while the previous commit was running goes into the next one), so a
 * lone request waits for one commit and not for a timer, and under load batches grow without a knob (waiting
 * a little for bigger batches was tried and gained nothing). A batch also closes at `maxBatchSize` (counted by the
 * caller's `size`) so that one huge queue does not become one huge transaction; an item is never split.
 *
 * Failures: when the database cannot be reached, or an item would wait longer than `commitTimeoutMs`, every item
 * of the batch is refused with 503 (the SDKs retry); any other failure of a batch of several items is retried
 * item by item, so one bad request cannot fail the others; a lone item's error goes to its caller (translated
 * like any other PostgreSQL error).
 */
import type { ClientBase, QueryResult, QueryResultRow } from 'pg';
import pgCopyStreams from 'pg-copy-streams';
import type { Logger } from 'pino';
import type { ApiError } from '../core/errors.js';
import { discardConnection, type Db } from './client.js';
import { databaseUnavailable, isUnavailable, translatePgError } from './errors.js';
import { runQuery } from './query.js';

const { from: copyFrom } = pgCopyStreams;

/**
 * pg-copy-streams answers the database's go-ahead with three socket writes (the data's header, the data, the
 * end of the copy); corked, they leave in one system call, which is worth it on the hot path.
 */
function corked<S extends object>(stream: S): S {
  const copy = stream as unknown as { handleCopyInResponse(connection: { stream: { cork(): void; uncork(): void } }): void };
  const original = copy.handleCopyInResponse.bind(copy);
  copy.handleCopyInResponse = (connection) => {
    connection.stream.cork();
    try {
      original(connection);
    } finally {
      process.nextTick(() => connection.stream.uncork());
    }
  };
  return stream;
}

export interface GroupCommitOptions<T> {
  /** A batch closes once its items' sizes add up to this much (a single larger item still goes alone). */
  maxBatchSize: number;
  /**
   * Transactions in flight at once. The next one can already be waiting for its locks in the database while
   * the previous one commits, which saves it a round trip; the work itself decides what they serialise on.
   */
  maxInFlight: number;
  /**
   * A transaction beyond the first starts only once the queue holds at least this much (by `size`); the first
   * always starts at once. Small batches are better off waiting for the commit in flight and growing (their
   * fixed cost is most of their time), while a large one is work the server can hand over now instead of
   * leaving the database idle while it decodes the next requests. 0 (the default): no such wait.
   */
  overlapFromSize?: number;
  /**
   * Longest an item may wait from its submission until its transaction commits: its time in the queue (behind a
   * transaction that may itself be running out of time), the wait for a connection and the transaction. A
   * transaction's deadline is that of its oldest item; past it the transaction's connection is closed, so
   * PostgreSQL rolls back whatever it had not committed, and its items are refused with 503: a database that
   * stopped answering must not hold capture's requests, whose senders give up on their own after some seconds.
   */
  commitTimeoutMs: number;
  /**
   * More time a transaction gets per unit of its `size` (0 by default): a batch of a hundred thousand events
   * takes seconds to write even when the database is well, and a fixed deadline would refuse it at every retry.
   */
  commitMsPerSize?: number;
  size: (item: T) => number;
  logger: Logger;
  /** Called after every transaction, committed or not; `overlapped`: it started while another was in flight. */
  observe?: (flush: { items: number; size: number; ms: number; ok: boolean; overlapped: boolean }) => void;
}

/**
 * A transaction that begins with its first statement: `script()` sends `begin` together with its statements in
 * one round trip, which matters because every round trip waits for a turn of a busy event loop.
 */
export class Transaction {
  private begun = false;
  private ended = false;

  constructor(private readonly client: ClientBase) {}

  /** Begun and not yet committed. */
  get open(): boolean {
    return this.begun && !this.ended;
  }

  get begunOnce(): boolean {
    return this.begun;
  }

  /** Runs parameterless statements in one round trip (simple query protocol); one result per statement. */
  async script(statements: readonly string[]): Promise<QueryResult[]> {
    if (statements.length === 0) return [];
    const prefix = this.begun ? [] : ['begin'];
    this.begun = true;
    const result = (await runQuery(this.client, [...prefix, ...statements].join(';\n'))) as QueryResult | QueryResult[];
    return (Array.isArray(result) ? result : [result]).slice(prefix.length);
  }

  /**
   * Runs parameterless statements and commits, all in one round trip (with `begin` too when nothing ran yet):
   * the whole transaction of a simple batch costs a single exchange with the database.
   */
  async scriptAndCommit(statements: readonly string[]): Promise<QueryResult[]> {
    const results = await this.script([...statements, 'commit']);
    this.ended = true;
    return results.slice(0, -1);
  }

  /**
   * One message: (`begin`,) `before`, a COPY FROM STDIN fed with `data`'s pieces, `after`, `commit`. The database answers
   * the COPY's start before it takes the data, so this costs two round trips whatever the batch. Returns the
   * number of rows copied.
   */
  async copyAndCommit(before: readonly string[], copy: string, data: readonly Buffer[], after: readonly string[]): Promise<number> {
    const statements = [...(this.begun ? [] : ['begin']), ...before, copy, ...after, 'commit'];
    this.begun = true;
    const stream = this.client.query(corked(copyFrom(statements.join(';\n'))));
    await new Promise<void>((resolve, reject) => {
      stream.on('error', reject);
      stream.on('finish', () => resolve());
      for (const piece of data) stream.write(piece);
      stream.end();
    });
    this.ended = true;
    return stream.rowCount ?? 0;
  }

  /**
   * Runs one prepared statement as a transaction of its own (PostgreSQL commits it when the statement ends), in
   * one round trip, before anything else ran. If it fails, PostgreSQL has rolled it back and nothing has begun.
   */
  async alone(statement: { name: string; text: string }, values: unknown[]): Promise<QueryResult> {
    if (this.begun) throw new Error('a statement alone cannot join a transaction already begun');
    const result = await runQuery(this.client, { name: statement.name, text: statement.text, values });
    this.begun = true;
    this.ended = true;
    return result;
  }

  /** Runs a statement on the connection before anything else ran (it is a transaction of its own). */
  async beforeBegin<R extends QueryResultRow = QueryResultRow>(text: string): Promise<QueryResult<R>> {
    if (this.begun) throw new Error('the transaction has begun');
    return runQuery<R>(this.client, text);
  }

  /** Rolls back what ran so far, so that the same transaction object can start again. */
  async abandon(): Promise<void> {
    if (this.begun) await runQuery(this.client, 'rollback');
    this.begun = false;
    this.ended = false;
  }

  async query<R extends QueryResultRow = QueryResultRow>(text: string, values: unknown[]): Promise<QueryResult<R>> {
    return runQuery<R>(await this.connection(), text, values);
  }

  /** The connection, inside the transaction (for COPY). */
  async connection(): Promise<ClientBase> {
    if (!this.begun) {
      this.begun = true;
      await runQuery(this.client, 'begin');
    }
    return this.client;
  }
}

interface Pending<T> {
  item: T;
  size: number;
  /** performance.now() when it was submitted. */
  submittedAt: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function unavailableError(): ApiError {
  return databaseUnavailable('The events could not be stored because the database is unavailable; retry later.');
}

export class GroupCommit<T> {
  private queue: Array<Pending<T>> = [];
  /** The sizes of the queued items, added up. */
  private queuedSize = 0;
  private readonly running = new Set<Promise<void>>();
  private scheduled = false;

  constructor(
    private readonly db: Db,
    /** Writes the items inside the open transaction; may return what to do once it has committed. */
    private readonly work: (transaction: Transaction, items: T[]) => Promise<(() => void) | void>,
    private readonly options: GroupCommitOptions<T>,
  ) {}

  /** Resolves once `item` is committed. */
  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const size = this.options.size(item);
      this.queue.push({ item, size, submittedAt: performance.now(), resolve, reject });
      this.queuedSize += size;
      this.schedule();
    });
  }

  /** Waits until everything submitted so far has been written (or refused). */
  async drain(): Promise<void> {
    while (this.running.size > 0 || this.queue.length > 0 || this.scheduled) {
      if (this.running.size > 0) await Promise.all(this.running);
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Whether another transaction may start now (see maxInFlight and overlapFromSize). */
  private mayStart(): boolean {
    if (this.queue.length === 0) return false;
    if (this.running.size === 0) return true;
    return this.running.size < this.options.maxInFlight && this.queuedSize >= (this.options.overlapFromSize ?? 0);
  }

  private schedule(): void {
    if (this.scheduled || !this.mayStart()) return;
    this.scheduled = true;
    // Requests that arrive in the same turn of the event loop share the transaction.
    setImmediate(() => {
      this.scheduled = false;
      this.flushNext();
    });
  }

  private flushNext(): void {
    if (!this.mayStart()) return;
    const batch: Array<Pending<T>> = [];
    let size = 0;
    while (this.queue.length > 0) {
      const itemSize = this.queue[0]!.size;
      if (batch.length > 0 && size + itemSize > this.options.maxBatchSize) break;
      batch.push(this.queue.shift()!);
      size += itemSize;
    }
    this.queuedSize -= size;
    const flushing: Promise<void> = this.flush(batch, size).finally(() => {
      this.running.delete(flushing);
      if (this.queue.length > 0) this.schedule();
    });
    this.running.add(flushing);
    // What a batch closed at maxBatchSize left behind may be enough for another transaction beside it.
    this.schedule();
  }

  private async flush(batch: Array<Pending<T>>, size: number): Promise<void> {
    try {
      // (The queue is in order of submission: the first item is the oldest.)
      const deadlineAt = batch[0]!.submittedAt + this.options.commitTimeoutMs + size * (this.options.commitMsPerSize ?? 0);
      await this.transaction(batch.map((entry) => entry.item), size, deadlineAt);
      for (const entry of batch) entry.resolve();
    } catch (error) {
      if (isUnavailable(error)) {
        this.options.logger.warn({ err: error, items: batch.length }, 'group commit: database unavailable');
        for (const entry of batch) entry.reject(unavailableError());
      } else if (batch.length === 1) {
        batch[0]!.reject(translatePgError(error));
      } else {
        this.options.logger.warn({ err: error, items: batch.length }, 'group commit failed; retrying item by item');
        for (const entry of batch) await this.flush([entry], entry.size);
      }
    }
  }

  private async transaction(items: T[], size: number, deadlineAt: number): Promise<void> {
    const started = performance.now();
    let ok = false;
    const deadline = new FlushDeadline(deadlineAt - started);
    const client = await deadline.lend(this.db).catch((error: unknown) => {
      deadline.clear();
      throw error;
    });
    // (Its own flush is among those running by now.)
    const overlapped = this.running.size > 1;
    const transaction = new Transaction(client);
    try {
      try {
        const committing = (async () => {
          const afterCommit = await this.work(transaction, items);
          if (transaction.open) await runQuery(client, 'commit');
          return afterCommit;
        })();
        // (A commit that answered is stored, and acknowledged, even if the deadline has just passed; past the
        // deadline the connection is closed, and nothing on it can commit any more.)
        const afterCommit = await deadline.race(committing);
        ok = true;
        afterCommit?.();
      } catch (error) {
        if (transaction.begunOnce && !deadline.expired) await runQuery(client, 'rollback').catch(() => undefined);
        throw deadline.expired ? unavailableError() : error;
      }
    } finally {
      deadline.clear();
      await this.db.client.releaseConnection(client);
      this.options.observe?.({ items: items.length, size, ms: performance.now() - started, ok, overlapped });
    }
  }
}

/**
 * One transaction's deadline. It covers waiting for a connection, then the transaction: when it passes, the
 * connection is discarded (closed, and never lent again), which fails whatever statement is waiting on it.
 */
class FlushDeadline {
  expired = false;
  private readonly timer: NodeJS.Timeout;
  private connection: ClientBase | null = null;
  private stopWaiting: (() => void) | null = null;

  constructor(timeoutMs: number) {
    // (Already past, it expires at once: what it races is refused on the next turn.)
    this.timer = setTimeout(() => {
      this.expired = true;
      this.stopWaiting?.();
      if (this.connection) discardConnection(this.connection, 'a group commit ran out of time');
    }, Math.max(0, timeoutMs));
  }

  /** `work`'s outcome, or a 503 once the deadline passes (work still running then fails on its own). */
  async race<R>(work: Promise<R>): Promise<R> {
    work.catch(() => undefined);
    const late = new Promise<never>((_, reject) => {
      this.stopWaiting = () => reject(unavailableError());
    });
    if (this.expired) this.stopWaiting?.();
    try {
      return await Promise.race([work, late]);
    } finally {
      this.stopWaiting = null;
    }
  }

  /** A connection of `db`'s pool, or a 503 if none came before the deadline (one that comes later goes back). */
  async lend(db: Db): Promise<ClientBase> {
    const acquiring = db.client.acquireConnection() as Promise<ClientBase>;
    try {
      this.connection = await this.race(acquiring);
      return this.connection;
    } catch (error) {
      acquiring.then((connection) => db.client.releaseConnection(connection)).catch(() => undefined);
      throw error;
    }
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
