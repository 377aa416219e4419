/**
 * The application. Each request is first offered to the capture lane (handlers/server/lane.ts: the operations the spec
 * marks `x-hedgerow-lane: capture`, served straight from node:http for speed); every other request goes through
 * Koa: error middleware → request log → body reading (1 MB) → openapi-backend dispatch to the handler registry.
 */
import { createServer, maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import Koa from 'koa';
import { AccessCache } from '../../db/queries/access-cache.js';
import { AddressPolicy } from '../../db/destinations/address-policy.js';
import { createReadDb, type ReadDb } from '../../db/pg/client.js';
import { answerThenDrain, API_BODY_LIMIT_BYTES, readBody } from './body.js';
import { renderProcessMetrics } from '../capture/metrics.js';
import { createCaptureServices, type CaptureServices } from '../capture/services.js';
import { ApiError, errors } from '../../db/core/errors.js';
import { registry } from '../index.js';
import { QueryJobs } from '../jobs/query-jobs.js';
import { CaptureLane, type ErrorResponse } from './lane.js';
import { pathCanonicalizer } from '../openapi/router.js';
import { createOpenApiBackend, type DispatchRequest } from './openapi-backend.js';
import { hasEmptySegment, wellEncodedPath } from '../openapi/router.js';
import { SpecValidators } from '../openapi/validators.js';
import type { AppDeps, BaseDeps, RequestState } from '../types.js';
import { AnswerMemory } from './answer-memory.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one place that turns a failure into an error response, for Koa and the capture lane alike. */
function errorResponse(deps: AppDeps, thrown: unknown, where: { method: string; path: string }): ErrorResponse {
  let error = thrown;
  if (!(error instanceof ApiError)) {
    deps.logger.error({ err: error, ...where }, 'unexpected error');
    error = errors.server();
  }
  const apiError = error as ApiError;
  return { status: apiError.status, headers: apiError.headers, body: apiError.toBody() };
}

function errorMiddleware(deps: AppDeps): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const answer = errorResponse(deps, thrown, { method: ctx.method, path: ctx.path });
      if (answer.status === 413) {
        // Written here rather than by Koa: the connection is closed after the rest of the body (answerThenDrain).
        ctx.status = answer.status;
        ctx.respond = false;
        const text = JSON.stringify(answer.body);
        answerThenDrain(ctx.req, ctx.res, { status: answer.status, headers: answer.headers, contentType: 'application/json; charset=utf-8', text });
        return;
      }
      ctx.set(answer.headers);
      ctx.status = answer.status;
      ctx.body = answer.body;
    }
  };
}

/**
 * Answers what node:http could not parse (an oversized head, a malformed request line or header, a head not
 * received in time) in the error format, with node's own statuses: without this listener node writes a bare
 * status line. The socket is closed after the answer, as node does: the rest of what it holds cannot be framed.
 */
function answerClientError(deps: AppDeps, error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const thrown =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? errors.headersTooLarge(maxHeaderSize)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? errors.requestTimeout()
        : errors.malformedRequest();
  const answer = errorResponse(deps, thrown, { method: '', path: '' });
  const body = JSON.stringify(answer.body);
  const headers = { ...answer.headers, 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n${body}`);
}

/**
 * Logs each request once, after Koa has written its answer (later in the same turn of the event loop): the log
 * line is a synchronous write that the caller need not wait for, and by then the status is the
 * one the error middleware gave. An answer never written (the caller went away) is logged as aborted.
 */
function requestLog(deps: AppDeps): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      setImmediate(() => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const status = ctx.res.headersSent ? ctx.status : 'aborted';
        deps.logger.info({ method: ctx.method, path: ctx.path, status, ms: Math.round(ms * 10) / 10 }, 'request');
      });
    }
  };
}

/** Reads the raw body of a lane with its own size limit; parsing waits until the operation is known. */
function bodyReader(limitBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.state.rawBody === undefined && METHODS_WITH_BODY.has(ctx.method)) {
      ctx.state.rawBody = await readBody(ctx.req, limitBytes);
    }
    await next();
  };
}

/** Koa, with the capture lane in front of it; `close()` waits for capture's pending writes. */
export class HedgerowApp extends Koa {
  constructor(
    private readonly lane: CaptureLane,
    readonly capture: CaptureServices,
    private readonly reader: ReadDb,
    private readonly access: AccessCache,
    private readonly onClientError: (error: NodeJS.ErrnoException, socket: Duplex) => void,
  ) {
    super();
  }

  /** Koa's listen, with the requests node:http cannot parse answered in the error format. */
  override listen(...args: unknown[]): Server {
    const server = createServer(this.callback());
    server.on('clientError', this.onClientError);
    return Reflect.apply(server.listen, server, args) as Server;
  }

  override callback(): ReturnType<Koa['callback']> {
    const koa = super.callback();
    return (req, res) => {
      // Hedgerow serves HTTP/1.1 only (app.listen), so requests are node:http's. The lane answers its own
      // requests (and never throws); everything else is Koa's.
      if (this.lane.serve(req as IncomingMessage, res as ServerResponse)) return Promise.resolve();
      return koa(req, res);
    };
  }

  /**
   * Waits until every captured event has been committed or refused, and closes the app's read-only sessions
   * and its access cache's listening session; call once the server stops accepting. The database given to
   * createApp stays open: it is the caller's.
   */
  async close(): Promise<void> {
    await this.capture.drain();
    await this.access.stop();
    await this.reader.destroy();
  }
}

export async function createApp(base: BaseDeps): Promise<HedgerowApp> {
  const access = AccessCache.forDb(base.db, base.logger);
  await access.start();
  const deps: AppDeps = {
    ...base,
    reader: createReadDb(base.db, base.config.queryTimeoutMs),
    access,
    queryJobs: new QueryJobs(base.config.queryTimeoutMs),
    destinationAddresses: new AddressPolicy({ allowlist: base.config.destinationAllowlist, resolve: base.destinationResolver }),
    answerMemory: new AnswerMemory({ processBytes: base.config.answerMemoryBytes, userBytes: base.config.answerMemoryPerUserBytes }),
  };
  const api = await createOpenApiBackend(deps, registry);
  const canonicalPath = pathCanonicalizer(api);
  const validators = new SpecValidators(api.definition);
  const capture = createCaptureServices(deps, validators);
  if (deps.supervisor) deps.supervisor.localMetrics = () => renderProcessMetrics(capture.metrics, access);
  const lane = new CaptureLane(api, registry, deps, capture, validators, (error, where) => errorResponse(deps, error, where));
  const app = new HedgerowApp(lane, capture, deps.reader, access, (error, socket) => answerClientError(deps, error, socket));
  app.proxy = process.env.HEDGEROW_TRUST_PROXY === '1';
  app.use(errorMiddleware(deps));
  app.use(requestLog(deps));
  app.use(bodyReader(API_BODY_LIMIT_BYTES));

  // Everything the capture lane did not take is dispatched through the spec.
  app.use(async (ctx) => {
    // Nothing has a name with a malformed %-escape, or an empty one.
    if (!wellEncodedPath(ctx.path) || hasEmptySegment(ctx.path)) throw errors.notFound();
    const state: RequestState = { principal: null, organization: null, environment: null };
    ctx.state.hedgerow = state;
    const request: DispatchRequest = {
      // HEAD is GET without the body (Koa leaves the body out and keeps its Content-Length).
      method: ctx.method === 'HEAD' ? 'GET' : ctx.method,
      path: canonicalPath(ctx.path),
      query: ctx.query as DispatchRequest['query'],
      headers: ctx.headers as DispatchRequest['headers'],
      body: ctx.state.rawBody as Buffer | undefined,
    };
    ctx.state.dispatchRequest = request;
    await api.handleRequest(request, ctx);
  });
  return app;
}
