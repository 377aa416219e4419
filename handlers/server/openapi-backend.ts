/**
 * The openapi-backend instance: spec/openapi.yaml routes each request to its operationId, validates it, and the
 * lifecycle hooks below turn every way a request can fail into one ApiError (written by the error middleware).
 *
 * Order per request: route (404, 405) → parse the JSON body (415, 400) → authenticate (401) → scope, rate limit
 * and path ownership (403, 429, 404) → validate against the spec (400) → handler, or 501 if not built yet.
 */
import type { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type Koa from 'koa';
import { OpenAPIBackend, type Context as OperationContext, type Request as OperationRequest } from 'openapi-backend';
import { parseJsonBody } from './body.js';
import { stringifyExact } from '../../db/core/exact-json.js';
import { errors } from '../../db/core/errors.js';
import { DatabaseRateLimiter } from './rate-limit.js';
import { authenticate, authorize, SECURITY_SCHEME } from './security.js';
import { isLaneOperation } from './lane.js';
import { useIndexedRouter } from '../openapi/router.js';
import { requestValidationError } from '../openapi/validation-errors.js';
import { SPEC_PATH } from '../openapi/spec.js';
import { NOT_BUILT, isLaneHandler, type AppDeps, type HandlerRegistry, type OperationId, type RequestState } from '../types.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** What the Koa adapter hands to openapi-backend; the body is the raw bytes until the operation is known. */
export interface DispatchRequest extends OperationRequest {
  body?: unknown;
}

export function requestState(ctx: Koa.Context): RequestState {
  return ctx.state.hedgerow as RequestState;
}

export async function createOpenApiBackend(deps: AppDeps, registry: HandlerRegistry): Promise<OpenAPIBackend> {
  const limiter = new DatabaseRateLimiter(deps.db, deps.config.rateLimitPerMinute, deps.logger);
  const api = new OpenAPIBackend({
    definition: SPEC_PATH,
    strict: true,
    coerceTypes: true,
    // Its own trailing-slash handling strips the request's slash but not the spec's; see canonicalPath().
    ignoreTrailingSlashes: false,
    // Quick mode compiles each operation's validators on its first request instead of all at start-up, and
    // skips re-validating the document (`npm run spec:lint` does that): much less resident memory, most of it
    // for operations the capture lane serves without openapi-backend.
    quick: true,
    // A `oneOf` with a discriminator (the query's `kind`) is validated against the branch its tag names only,
    // so that a mistake is reported from that branch, and an unknown tag as itself.
    ajvOpts: { discriminator: true },
    customizeAjv: (ajv: Ajv) => {
      addFormats.default(ajv);
      return ajv;
    },
  });

  api.register({
    notFound: () => {
      throw errors.notFound();
    },
    methodNotAllowed: (c: OperationContext, ctx: Koa.Context) => {
      // The request's own method: a HEAD is routed as GET.
      throw errors.methodNotAllowed(ctx.method, allowedMethods(api, c.request as unknown as OperationRequest));
    },
    postRoutingHandler: (c: OperationContext, ctx: Koa.Context) => {
      // Operations of the capture lane decode their own bodies (gzip, forms, base64, lz64): never parse them here.
      if (!c.operation || isLaneOperation(c.operation)) return;
      const request = ctx.state.dispatchRequest as DispatchRequest;
      const raw = request.body instanceof Buffer ? request.body : Buffer.alloc(0);
      request.body = c.operation.requestBody ? parseJsonBody(raw, ctx.get('content-type')) : undefined;
      // openapi-backend parses a string body again before validating it: a JSON string holding a JSON object
      // would pass as that object. Every body here is an object.
      if (typeof request.body === 'string') throw errors.validation('Invalid data. Expected a dictionary, but got str.');
      c.request.requestBody = request.body;
    },
    postSecurityHandler: (c: OperationContext, ctx: Koa.Context) => authorize(deps, limiter, c, requestState(ctx)),
    unauthorizedHandler: () => {
      throw errors.notAuthenticated();
    },
    validationFail: (c: OperationContext) => {
      throw requestValidationError(c.validation.errors?.[0], c);
    },
    notImplemented: (c: OperationContext) => {
      throw errors.notImplemented(c.operation.operationId ?? 'unknown');
    },
  });
  api.registerSecurityHandler(SECURITY_SCHEME, (c: OperationContext, ctx: Koa.Context) => authenticate(deps, ctx, c));

  for (const operationId of Object.keys(registry) as OperationId[]) {
    const handler = registry[operationId];
    if (handler === NOT_BUILT || isLaneHandler(handler)) continue; // the capture lane dispatches its own
    api.register(operationId, async (c: OperationContext, ctx: Koa.Context) => {
      let result: { status: number; body?: unknown; contentType?: string };
      try {
        result = await (handler as (input: unknown) => Promise<typeof result>)({
          params: c.request.params,
          query: c.request.query,
          body: c.request.requestBody,
          state: requestState(ctx),
          deps,
          ctx,
          allowedMethods: () => allowedMethods(api, c.request as unknown as OperationRequest),
        });
      } finally {
        // Its own change must not wait for PostgreSQL's notification: forgotten before the answer is written.
        if (changesAccess(c.operation)) deps.access.clear();
      }
      if ('body' in result && result.body !== undefined) {
        // A string body is csv (with its type) or JSON that is already serialised (JsonText). Everything goes out
        // as bytes encoded once here: Koa would serialise an object twice (once to measure it), measure a
        // string's UTF-8 length and then node encode it again. Integers read exactly are written as their digits.
        ctx.body = Buffer.from(typeof result.body === 'string' ? result.body : stringifyExact(result.body));
        ctx.type = result.contentType ?? 'application/json';
      } else {
        ctx.body = null; // must precede the status: a null body would otherwise turn it into 204
      }
      ctx.status = result.status;
    });
  }
  await api.init();
  useIndexedRouter(api);
  return api;
}

/**
 * The methods the request's path has in the spec (upper case), leaving out those it only refuses: an operation
 * documented with a 405 and no success, such as the playlist DELETE.
 */
function allowedMethods(api: OpenAPIBackend, request: OperationRequest): string[] {
  return METHODS.filter((method) => {
    try {
      const operation = api.router.matchOperation({ ...request, method }, true);
      const statuses = Object.keys(operation.responses ?? {});
      return !(statuses.includes('405') && !statuses.some((status) => status.startsWith('2')));
    } catch {
      return false;
    }
  }).map((method) => method.toUpperCase());
}

export const CHANGES_ACCESS_EXTENSION = 'x-hedgerow-changes-access';

/** Whether the spec marks the operation as changing who may do what (db/queries/access-cache.ts). */
function changesAccess(operation: object): boolean {
  return (operation as Record<string, unknown>)[CHANGES_ACCESS_EXTENSION] === true;
}
