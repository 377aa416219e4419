/**
 * The memory a process's answers hold at once: from the moment a query's, a listing's or a stored status's
 * answer starts being built until its response has been sent or its connection closed. A per-answer byte budget
 * bounds one answer; this bounds how many of them a process keeps, however slowly their clients read.
 *
 * An answer reserves what it is expected to take before it is built (a stored status its stored size, a page of
 * the event listing what its events may take, up to the budget) and grows its reservation as its rows are
 * counted (the query endpoint's reserve nothing first: a query that runs long and answers little holds little);
 * it keeps only its actual size once built. A user (whose keys may reach many organizations and environments) may hold at most its
 * share of the process's budget: past it a 429; when the process as a whole is full, a 503. Both say when to
 * come back.
 *
 * Once built, an answer whose client stops reading is not kept forever: a connection on which nothing has been
 * written for the write timeout is closed, and the answer's reservation given back.
 */
import type Koa from 'koa';
import { errors } from '../../db/core/errors.js';
import type { AppDeps, RequestState } from '../types.js';

/** Seconds a refused caller is told to wait: an answer in flight is usually sent within a few. */
const RETRY_AFTER_SECONDS = 5;
const MIB = 1024 * 1024;

/** Bytes an answer may always take, whatever is held already (a status, a page of a few events). */
const SMALL_ANSWER_BYTES = 64 * 1024;

export interface AnswerMemoryLimits {
  /** Bytes of answers the process may hold at once. */
  processBytes: number;
  /** Bytes of answers one user may hold at once in the process. */
  userBytes: number;
  /** Bytes an answer may always reserve or grow by, whatever is held (64 KiB unless set). */
  smallAnswerBytes?: number;
}

/**
 * Bytes held for one answer: resized as it is built (growing is refused as reserving is), given back once it is
 * sent (release is idempotent).
 */
export interface AnswerReservation {
  readonly bytes: number;
  resize(bytes: number): void;
  release(): void;
}

export class AnswerMemory {
  private heldBytes = 0;
  private readonly heldByUser = new Map<string, number>();

  constructor(readonly limits: AnswerMemoryLimits) {}

  /** Bytes held by every answer of the process, or by one user's. */
  held(user?: string): number {
    return user === undefined ? this.heldBytes : (this.heldByUser.get(user) ?? 0);
  }

  /**
   * Reserves `bytes` for an answer of `user`: a 429 when the user's share would overflow, a 503 when the
   * process's budget would. A request larger than a share on its own asks for the whole share.
   */
  reserve(user: string, bytes: number): AnswerReservation {
    const wanted = this.capped(bytes);
    this.admit(user, wanted);
    this.add(user, wanted);
    let held = wanted;
    let released = false;
    return {
      get bytes() {
        return released ? 0 : held;
      },
      resize: (bytes: number) => {
        if (released) return;
        const next = this.capped(bytes);
        if (next > held) this.admit(user, next - held);
        this.add(user, next - held);
        held = next;
      },
      release: () => {
        if (released) return;
        released = true;
        this.add(user, -held);
        held = 0;
      },
    };
  }

  /** A request larger than a share on its own asks for the whole share. */
  private capped(bytes: number): number {
    return Math.max(0, Math.min(bytes, this.limits.userBytes, this.limits.processBytes));
  }

  /**
   * Refuses `more` bytes for the user: a 429 past its share, a 503 past the process's budget. A small amount is
   * always admitted: it cannot make a process grow by itself, and an asynchronous submit's answer (a queued
   * status) is reserved only after its query was queued, so it must never be refused then.
   */
  private admit(user: string, more: number): void {
    if (more <= (this.limits.smallAnswerBytes ?? SMALL_ANSWER_BYTES)) return;
    if (this.held(user) + more > this.limits.userBytes) {
      throw errors.tooManyQueries(
        'Too many answers of this user are being built or sent at once. Read the answers in flight first, or try again later.',
        RETRY_AFTER_SECONDS,
      );
    }
    if (this.heldBytes + more > this.limits.processBytes) {
      throw errors.unavailable('The server is sending as many answers as it can hold. Try again later.', RETRY_AFTER_SECONDS);
    }
  }

  private add(user: string, bytes: number): void {
    this.heldBytes += bytes;
    const next = (this.heldByUser.get(user) ?? 0) + bytes;
    if (next <= 0) this.heldByUser.delete(user);
    else this.heldByUser.set(user, next);
  }
}

/** The settings an answer is held by. */
export interface AnswerHoldSettings {
  memory: AnswerMemory;
  /** What one answer may grow to (the per-answer budget). */
  maxAnswerBytes: number;
  /** Longest a built answer's connection may go without writing anything before it is closed. */
  writeTimeoutMs: number;
}

/**
 * One answer's hold: `growing(bytes)` while it is built (when it reserved less than its budget), `sending(bytes)`
 * once built, with the bytes it will send; given back when it has gone.
 */
export interface AnswerHold {
  growing(bytes: number): void;
  sending(bytes: number): void;
  release(): void;
}

/**
 * Reserves an answer's budget for `user` on the request's connection, given back when its response has been
 * sent or its connection closed (or by release(), when it ends in an error instead).
 */
export function holdAnswer(ctx: Koa.Context, user: string, settings: AnswerHoldSettings): AnswerHold {
  const reservation = settings.memory.reserve(user, settings.maxAnswerBytes);
  const response = ctx.res;
  const socket = ctx.req.socket;
  const onTimeout = () => socket.destroy();
  const release = () => {
    reservation.release();
    socket.removeListener('timeout', onTimeout);
  };
  // 'close' comes once the response has been sent whole, or its connection closed, whichever first.
  response.once('close', release);
  if (response.destroyed || socket.destroyed) release();
  return {
    growing(bytes: number) {
      // By the mebibyte: a query's rows are counted one by one.
      if (bytes > reservation.bytes) reservation.resize(Math.ceil(bytes / MIB) * MIB);
    },
    sending(bytes: number) {
      reservation.resize(bytes);
      if (settings.writeTimeoutMs > 0 && !socket.destroyed) {
        // Every write the client lets through resets it; a client that reads nothing is cut off. The server's
        // own keep-alive timeout takes over the socket's timeout once the response has finished.
        socket.setTimeout(settings.writeTimeoutMs);
        socket.once('timeout', onTimeout);
      }
    },
    release,
  };
}

/**
 * The hold of a request's answer as the configuration sets it (the answer budget, unless the answer is known to
 * be smaller), for the user whose key made the request: the query endpoint's, a stored status's and the event
 * listing's answers all take one.
 */
export function holdRequestAnswer(
  ctx: Koa.Context,
  deps: AppDeps,
  state: RequestState,
  maxAnswerBytes: number = deps.config.queryResultMaxBytes,
): AnswerHold {
  const user = state.principal ? `user ${state.principal.user.id}` : 'anonymous';
  return holdAnswer(ctx, user, {
    memory: deps.answerMemory,
    maxAnswerBytes,
    writeTimeoutMs: deps.config.answerWriteTimeoutMs,
  });
}
