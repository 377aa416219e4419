/**
 * The contract between the spec and the hand-written handlers, derived from generated/api.ts so that a handler's
 * input and output follow the spec's types: one operationId names an operation everywhere.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { AccessCache } from '../db/queries/access-cache.js';
import type { AddressPolicy, HostResolver } from '../db/destinations/address-policy.js';
import type { Db, ReadDb } from '../db/pg/client.js';
import type { ReadTenant } from '../db/pg/session-shares.js';
import type { EnvironmentAccess, OrganizationAccess } from '../db/queries/access.js';
import type { Principal } from '../db/queries/personal-api-keys.js';
import type { ErrorBody } from '../db/core/errors.js';
import type { operations } from '../generated/api.js';
import type { Config } from './server/config.js';
import type { CaptureServices } from './capture/services.js';
import type { BudgetLease } from './capture/budget.js';
import type { SupervisorLink } from './server/supervisor-link.js';
import type { QueryJobs } from './jobs/query-jobs.js';
import type { AnswerMemory } from './server/answer-memory.js';

export type OperationId = keyof operations;

type Operation<K extends OperationId> = operations[K];
type Parameters<K extends OperationId> = Operation<K>['parameters'];
type Never<T> = [T] extends [never] ? Record<string, never> : T;

export type PathParams<K extends OperationId> = Never<NonNullable<Parameters<K>['path']>>;
export type QueryParams<K extends OperationId> = Never<NonNullable<Parameters<K>['query']>>;
export type RequestBody<K extends OperationId> = Operation<K> extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : undefined;

type Responses<K extends OperationId> = Operation<K>['responses'];

/**
 * A success answered in a documented media type other than JSON (the event listing's `text/csv`, the spec's
 * YAML, the reference page), named by contentType.
 */
type TextResult<R, S> = R extends { content: infer C }
  ? { [M in Exclude<keyof C & string, 'application/json'>]: { status: S; body: C[M]; contentType: M } }[Exclude<keyof C & string, 'application/json'>]
  : never;

/**
 * A JSON body already serialised, with the shape B: written out as it is, as `application/json`. For answers
 * whose JSON PostgreSQL builds (the event listing); tests check them against the spec like any other.
 */
export type JsonText<B> = string & { readonly __jsonOf: B };

export function jsonText<B>(text: string): JsonText<B> {
  return text as JsonText<B>;
}

/**
 * What a handler returns: a documented success status with its JSON body (an object, or JsonText), a documented
 * status that has no body (204), or a documented error status whose body is not the
 * error format (a failed query's status, answered with its 400 as PostHog does). Other error statuses are thrown
 * as ApiError.
 */
export type HandlerResult<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends number
    ? Responses<K>[S] extends { content: { 'application/json': infer B } }
      ? S extends 200 | 201 | 202
        ? { status: S; body: B | JsonText<B> } | TextResult<Responses<K>[S], S>
        : B extends ErrorBody
          ? never
          : { status: S; body: B }
      : { status: S }
    : never;
}[keyof Responses<K>];

/**
 * What the app is started with: the database, the configuration and the logger; and, in a worker process of
 * `npm start`, its link to the supervisor (the workers' status, every worker's metrics).
 */
export interface BaseDeps {
  db: Db;
  config: Config;
  logger: Logger;
  supervisor?: SupervisorLink;
  /** How destination host names resolve when an export is written (tests answer for names); the system's by default. */
  destinationResolver?: HostResolver;
}

/**
 * What the whole app shares: the above, the pool of read-only sessions (db/pg/client.ts) and the memory of who
 * the API keys are (db/queries/access-cache.ts), both opened by the app.
 */
export interface AppDeps extends BaseDeps {
  reader: ReadDb;
  access: AccessCache;
  /** Writes and cancels asynchronous queries' jobs inside the API's own transactions. */
  queryJobs: QueryJobs;
  /** What a batch export destination may reach: config.destinationAllowlist, with the resolver above. */
  destinationAddresses: AddressPolicy;
  /** The bytes of answers this process holds at once, by user (handlers/server/answer-memory.ts). */
  answerMemory: AnswerMemory;
}

/** Who is calling and which of their resources the path names, resolved before the handler runs. */
export interface RequestState {
  principal: Principal | null;
  organization: OrganizationAccess | null;
  environment: EnvironmentAccess | null;
}

export interface HandlerInput<K extends OperationId> {
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  state: RequestState;
  deps: AppDeps;
  /** The Koa context, for what only HTTP knows (the request URL for pagination links). */
  ctx: Koa.Context;
  /** The methods the request's path allows in the spec, for the `Allow` header of a documented refusal's 405. */
  allowedMethods: () => string[];
}

export type Handler<K extends OperationId> = (input: HandlerInput<K>) => Promise<HandlerResult<K>>;

/**
 * What an operation of the capture lane answers: a documented success status with one of its documented media
 * types (JSON, a script or text). Errors are thrown as ApiError, as everywhere.
 */
export type LaneResult<K extends OperationId> = {
  [S in keyof Responses<K>]: S extends 200 | 201 | 202
    ? Responses<K>[S] extends { content: infer C }
      ? { [M in keyof C & string]: { status: S; contentType: M; body: C[M] } }[keyof C & string]
      : never
    : never;
}[keyof Responses<K>];

/** The input of a capture-lane operation (see handlers/server/lane.ts). */
export interface LaneInput<K extends OperationId> {
  operationId: K;
  /** Path and query parameters, checked and coerced against the operation's parameters in the spec. */
  params: PathParams<K>;
  query: QueryParams<K>;
  /** The raw request body (empty for GET and OPTIONS); each operation decodes its own. */
  body: Buffer;
  headers: IncomingHttpHeaders;
  deps: AppDeps;
  capture: CaptureServices;
  /** What the request holds of capture's memory budget; its decoding grows it. */
  lease: BudgetLease;
}

/**
 * An operation the spec marks `x-hedgerow-lane: capture`: dispatched by the capture lane before Koa, instead
 * of through openapi-backend.
 */
export interface LaneHandler<K extends OperationId> {
  readonly lane: 'capture';
  handle(input: LaneInput<K>): Promise<LaneResult<K>>;
}

export function laneHandler<K extends OperationId>(handle: (input: LaneInput<K>) => Promise<LaneResult<K>>): LaneHandler<K> {
  return { lane: 'capture', handle };
}

export function isLaneHandler(entry: unknown): entry is LaneHandler<OperationId> {
  return typeof entry === 'object' && entry !== null && (entry as { lane?: unknown }).lane === 'capture';
}

/** Marks an operation whose implementation is not built yet: it answers 501 and the README lists it. */
export const NOT_BUILT = Symbol('not built yet');

/** One entry per operationId of the spec: a missing or misspelled one fails the typecheck. */
export type HandlerRegistry = { [K in OperationId]: Handler<K> | LaneHandler<K> | typeof NOT_BUILT };

/** The state a handler can count on when its operation needs a personal API key. */
export function principalOf(state: RequestState): Principal {
  if (!state.principal) throw new Error('operation reached without an authenticated principal');
  return state.principal;
}

export function organizationOf(state: RequestState): OrganizationAccess {
  if (!state.organization) throw new Error('operation reached without a resolved organization');
  return state.organization;
}

export function environmentOf(state: RequestState): EnvironmentAccess {
  if (!state.environment) throw new Error('operation reached without a resolved environment');
  return state.environment;
}

/**
 * Who a read is for, for the shares of the database (db/pg/session-shares.ts): the environment, and the user of
 * the API key (the unit a caller cannot multiply: keys and users are made only by the admin CLI).
 */
export function tenantOf(state: RequestState): ReadTenant {
  return { environmentId: environmentOf(state).environment.id, userId: state.principal?.user.id ?? null };
}
