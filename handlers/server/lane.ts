/**
 * The capture lane: the operations spec/openapi.yaml marks `x-hedgerow-lane: capture` (capture, the start-up
 * calls of posthog-js, their pre-flights, the metrics), served straight from node:http, before Koa.
 *
 * Why a lane of its own: capture is the hot path, and the per-request cost of Koa and of openapi-backend's request
 * parsing alone would cap single-event capture well below what the machine can do (scripts/bench/README.md).
 * The lane keeps the spec canonical all the same: its routes
 * are the spec's paths and methods for those operations, each request's parameters are checked by Ajv
 * validators compiled from the operation's own parameters, payloads by validators compiled from the spec's
 * schemas (in the handlers), and the handlers are the registry's (handlers/index.ts) by operationId. Errors
 * go through the app's one error writer (handlers/server/app.ts).
 *
 * Per request: route → CORS headers (mirroring the Origin) → read the body (20 MB limit, counted as it
 * arrives) → check the parameters → handler (which decodes the body: handlers/capture/decode.ts) → response.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ValidateFunction } from 'ajv';
import type { OpenAPIBackend } from 'openapi-backend';
import { answerThenDrain, CAPTURE_BODY_LIMIT_BYTES, readBody } from './body.js';
import type { CaptureServices } from '../capture/services.js';
import { errors } from '../../db/core/errors.js';
import { otherSpelling, type CompiledPath } from '../openapi/paths.js';
import { pathIndexOf } from '../openapi/router.js';
import { parameterError } from '../openapi/validation-errors.js';
import type { SpecValidators } from '../openapi/validators.js';
import { isLaneHandler, type AppDeps, type HandlerRegistry, type LaneInput, type OperationId } from '../types.js';

export const LANE_EXTENSION = 'x-hedgerow-lane';

/** Whether the spec puts this operation in the capture lane (it then reads and decodes its own body). */
export function isLaneOperation(operation: object | undefined): boolean {
  return (operation as Record<string, unknown> | undefined)?.[LANE_EXTENSION] === 'capture';
}

export interface ErrorResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: unknown;
}

/** Turns anything thrown into the error response (handlers/server/app.ts owns the format). */
export type ErrorWriter = (error: unknown, where: { method: string; path: string }) => ErrorResponse;

/** Any operation's lane handler, as the router holds them (each is typed by its operationId in the registry). */
interface AnyLaneHandler {
  handle(input: LaneInput<OperationId>): Promise<{ status: number; contentType: string; body: unknown }>;
}

interface Route {
  operationId: OperationId;
  method: string;
  /** Null for fixed paths; the compiled template (the spec's index of paths) otherwise. */
  template: CompiledPath | null;
  handler: AnyLaneHandler;
  validateQuery: ValidateFunction;
  validatePath: ValidateFunction;
}

const PREFLIGHT_MAX_AGE_SECONDS = '86400';
const DEFAULT_ALLOWED_HEADERS = 'Content-Type, Content-Encoding, X-Requested-With';

/** The two spellings of a path: with and without its trailing slash. */
function spellings(path: string): string[] {
  return [path, otherSpelling(path)];
}

/** A templated path's match in either spelling: the lane answers both, as it does for fixed paths. */
function matchEitherSpelling(template: CompiledPath, path: string): RegExpExecArray | null {
  return template.pattern.exec(path) ?? template.pattern.exec(otherSpelling(path));
}

/** A path segment with its %-escapes decoded, or as it is when they are malformed. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function queryOf(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  if (search === '') return query;
  for (const [key, value] of new URLSearchParams(search)) {
    if (!(key in query)) query[key] = value;
  }
  return query;
}

export class CaptureLane {
  private readonly fixed = new Map<string, Route>();
  private readonly templated: Route[] = [];
  /** The methods of each fixed path of the lane (both spellings), for its 405 answers. */
  private readonly fixedMethods = new Map<string, Set<string>>();

  constructor(
    api: OpenAPIBackend,
    registry: HandlerRegistry,
    private readonly deps: AppDeps,
    private readonly services: CaptureServices,
    validators: SpecValidators,
    private readonly writeError: ErrorWriter,
  ) {
    const laneOperations = new Set<string>();
    for (const { operation, path: compiled } of pathIndexOf(api).subset(isLaneOperation).entries) {
      const operationId = operation.operationId as OperationId;
      laneOperations.add(operationId);
      const handler = registry[operationId];
      if (!isLaneHandler(handler)) {
        throw new Error(`${operationId} is in the capture lane (${LANE_EXTENSION}) but its registry entry is not a lane handler`);
      }
      const route: Route = {
        operationId,
        method: operation.method.toUpperCase(),
        template: compiled.names.length > 0 ? compiled : null,
        handler: handler as unknown as AnyLaneHandler,
        validateQuery: validators.parameters(operation, 'query'),
        validatePath: validators.parameters(operation, 'path'),
      };
      if (route.template) this.templated.push(route);
      else {
        for (const path of spellings(operation.path)) {
          this.fixed.set(`${route.method} ${path}`, route);
          const methods = this.fixedMethods.get(path) ?? new Set<string>();
          this.fixedMethods.set(path, methods.add(route.method));
        }
      }
    }
    for (const [operationId, entry] of Object.entries(registry)) {
      if (isLaneHandler(entry) && !laneOperations.has(operationId)) {
        throw new Error(`${operationId} has a lane handler but the spec does not put it in the capture lane`);
      }
    }
  }

  /** Serves the request when it is one of the lane's; returns false (having done nothing) otherwise. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const method = req.method ?? 'GET';
    // HEAD is served as GET; node:http leaves the body out of the answer and keeps its Content-Length.
    const routeMethod = method === 'HEAD' ? 'GET' : method;
    let route = this.fixed.get(`${routeMethod} ${path}`);
    let params: Record<string, string> = {};
    if (!route) {
      for (const candidate of this.templated) {
        if (candidate.method !== routeMethod || !candidate.template) continue;
        const match = matchEitherSpelling(candidate.template, path);
        if (!match) continue;
        route = candidate;
        params = Object.fromEntries(candidate.template.names.map((name, index) => [name, decodedSegment(match[index + 1]!)]));
        break;
      }
    }
    if (!route) {
      const methods =
        this.fixedMethods.get(path) ??
        new Set(this.templated.filter((candidate) => candidate.template && matchEitherSpelling(candidate.template, path)).map((candidate) => candidate.method));
      if (methods.size === 0) return false;
      this.refuseMethod(req, res, method, path, methods);
      return true;
    }
    void this.handle(route, req, res, path, mark === -1 ? '' : url.slice(mark + 1), params);
    return true;
  }

  /** 405 for a lane path asked with a method it does not have, with its CORS headers like every lane answer. */
  private refuseMethod(req: IncomingMessage, res: ServerResponse, method: string, path: string, allowed: Iterable<string>): void {
    req.resume(); // the body, if any, is not read
    this.setCors(req, res);
    const answer = this.writeError(errors.methodNotAllowed(method, allowed), { method, path });
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    this.send(res, answer.status, 'application/json; charset=utf-8', JSON.stringify(answer.body));
    this.deps.logger.info({ method, path, status: answer.status }, 'request');
  }

  private async handle(
    route: Route,
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    search: string,
    params: Record<string, string>,
  ): Promise<void> {
    const started = performance.now();
    this.setCors(req, res);
    // What the request holds of capture's memory budget, from its first byte until it is answered.
    const lease = this.services.budget.lease();
    try {
      const query = queryOf(search);
      const body =
        route.method === 'GET' || route.method === 'OPTIONS' ? Buffer.alloc(0) : await readBody(req, CAPTURE_BODY_LIMIT_BYTES, lease);
      // A pre-flight carries the query string of the request it asks about, and a browser that gets no CORS
      // answer drops that request: its parameters are checked when the request itself arrives, not here.
      if (route.method !== 'OPTIONS') {
        if (!route.validatePath(params)) throw parameterError(route.validatePath.errors, 'path');
        if (!route.validateQuery(query)) throw parameterError(route.validateQuery.errors, 'query');
      }
      const result = await route.handler.handle({
        operationId: route.operationId,
        params: params as never,
        query: query as never,
        body,
        headers: req.headers,
        deps: this.deps,
        capture: this.services,
        lease,
      });
      const text = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
      this.send(res, result.status, `${result.contentType}; charset=utf-8`, text);
    } catch (error) {
      // A client that went away (mid-body, say) gets no answer and is no server error.
      if (res.destroyed || res.socket?.destroyed) return;
      const answer = this.writeError(error, { method: route.method, path });
      const text = JSON.stringify(answer.body);
      if (answer.status === 413) {
        answerThenDrain(req, res, { status: answer.status, headers: answer.headers, contentType: 'application/json; charset=utf-8', text });
        return;
      }
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      this.send(res, answer.status, 'application/json; charset=utf-8', text);
    } finally {
      lease.release();
      const status = res.headersSent ? String(res.statusCode) : 'aborted';
      this.services.metrics.requests.add(1, { operation: route.operationId, status });
      const log = { operationId: route.operationId, method: req.method, path, status };
      const ms = Math.round((performance.now() - started) * 10) / 10;
      // Capture's volume is too high to log every success at info level; failures are always logged.
      if (!res.headersSent || res.statusCode >= 400) this.deps.logger.info({ ...log, ms }, 'request');
      else this.deps.logger.debug({ ...log, ms }, 'request');
    }
  }

  /** Mirrors the caller's Origin (with credentials), as PostHog's capture does for SDKs on any site. */
  private setCors(req: IncomingMessage, res: ServerResponse): void {
    const origin = req.headers.origin;
    if (origin) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.setHeader('Vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      const asked = req.headers['access-control-request-headers'];
      res.setHeader('Access-Control-Allow-Headers', typeof asked === 'string' && asked !== '' ? asked : DEFAULT_ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS);
    }
  }

  private send(res: ServerResponse, status: number, contentType: string, text: string): void {
    if (res.headersSent || res.destroyed) return;
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }
}
