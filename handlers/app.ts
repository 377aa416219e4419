/**
 * The Koa application: error middleware → request log → body reading (a size limit per lane, chosen by
 * @koa/router) → openapi-backend dispatch to the handler registry.
 */
import Router from '@koa/router';
import Koa from 'koa';
import { API_BODY_LIMIT_BYTES, CAPTURE_BODY_LIMIT_BYTES, readBody } from './body.js';
import { ApiError, errors } from './errors.js';
import { registry } from './index.js';
import { createOpenApiBackend, pathCanonicalizer, type DispatchRequest } from './openapi.js';
import type { AppDeps, RequestState } from './types.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The one place that writes error responses. */
function errorMiddleware(deps: AppDeps): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      let error = thrown;
      if (!(error instanceof ApiError)) {
        deps.logger.error({ err: error, method: ctx.method, path: ctx.path }, 'unexpected error');
        error = errors.server();
      }
      const apiError = error as ApiError;
      ctx.set(apiError.headers);
      ctx.status = apiError.status;
      ctx.body = apiError.toBody();
    }
  };
}

function requestLog(deps: AppDeps): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      deps.logger.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request');
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

export async function createApp(deps: AppDeps): Promise<Koa> {
  const api = await createOpenApiBackend(deps, registry);
  const canonicalPath = pathCanonicalizer(api);
  const app = new Koa();
  app.proxy = process.env.HEDGEROW_TRUST_PROXY === '1';
  app.use(errorMiddleware(deps));
  app.use(requestLog(deps));

  // Capture batches may be up to 20 MB; every other body is a small JSON document.
  const lanes = new Router();
  lanes.all(['/i/v0/e', '/i/v0/e/', '/batch', '/batch/'], bodyReader(CAPTURE_BODY_LIMIT_BYTES));
  app.use(lanes.routes());
  app.use(bodyReader(API_BODY_LIMIT_BYTES));

  // Whatever the lane routed, dispatch goes through the spec.
  app.use(async (ctx) => {
    const state: RequestState = { principal: null, organization: null, environment: null };
    ctx.state.hedgerow = state;
    const request: DispatchRequest = {
      method: ctx.method,
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
