/**
 * openapi-backend's router with its answers computed once instead of on every request.
 *
 * Why: the stock OpenAPIRouter rebuilds the list of every operation of the document (with lodash) each time it
 * is asked for one, and routing asks several times per request (match, then each lazily compiled validator
 * looks its operation up by id), compiling a RegExp for every path template on the way: with this spec's many
 * operations, a large share of a simple request's time. The document does not change after start-up,
 * so the operations, the id index and the compiled templates are built once here.
 *
 * The answers are the stock router's, in the same order of preference: an operation whose path is exactly the
 * request's and has its method; otherwise the path templates that match, most specific first (the length of
 * the template without its `{parameters}`, ties in document order); 404 when no path matches, 405 when no
 * matching path has the method. test/unit/openapi-router.test.ts checks this against the stock router for
 * every path of the spec.
 */
import { OpenAPIRouter, type Document, type Operation, type OpenAPIBackend, type Request } from 'openapi-backend';
import { otherSpelling, PathIndex } from './paths.js';

/**
 * Whether every %-escape of a request path decodes: openapi-backend decodes path parameters and throws on one
 * that does not (`%FF`), so such a path is answered before it is routed.
 */
export function wellEncodedPath(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the path has an empty segment (`/api/organizations//`). No resource is named by nothing, but the
 * path's other spelling (without its last slash) would otherwise answer as the list.
 */
export function hasEmptySegment(path: string): boolean {
  return path.includes('//');
}

export class IndexedRouter extends OpenAPIRouter {
  private readonly operations: Operation[];
  private readonly byId = new Map<string, Operation>();
  private readonly byPath = new Map<string, Operation[]>();
  /** Every operation's template, compiled once, most specific first: the spec's one index of paths. */
  readonly paths: PathIndex<Operation>;

  constructor(opts: { definition: Document; apiRoot?: string; ignoreTrailingSlashes?: boolean }) {
    super(opts);
    this.operations = super.getOperations();
    for (const operation of this.operations) {
      if (operation.operationId) this.byId.set(operation.operationId, operation);
      const samePath = this.byPath.get(operation.path) ?? [];
      samePath.push(operation);
      this.byPath.set(operation.path, samePath);
    }
    this.paths = new PathIndex(this.operations);
  }

  /** The stock router's check (private there): the path is the API root or below it, at a segment boundary. */
  private underApiRoot(path: string): boolean {
    if (this.apiRoot === '/') return path.startsWith('/');
    const root = this.apiRoot.replace(/\/$/, '');
    return path === root || path.startsWith(`${root}/`);
  }

  override getOperations(): Operation[] {
    return this.operations;
  }

  override getOperation(operationId: string): Operation | undefined {
    return this.byId.get(operationId);
  }

  override matchOperation(req: Request): Operation | undefined;
  override matchOperation(req: Request, strict: boolean): Operation;
  override matchOperation(req: Request, strict?: boolean): Operation | undefined {
    const { path: requestPath, method } = this.normalizeRequest(req);
    if (!this.underApiRoot(requestPath)) {
      if (strict) throw Error('404-notFound: no route matches request');
      return undefined;
    }
    const path = this.normalizePath(requestPath);
    const exact = this.byPath.get(path)?.find((operation) => operation.method === method);
    if (exact) return exact;
    let pathMatched = false;
    for (const { operation, path: template } of this.paths.entries) {
      if (!template.pattern.test(path)) continue;
      if (operation.method === method) return operation;
      pathMatched = true;
    }
    if (strict) {
      throw Error(pathMatched ? '405-methodNotAllowed: this method is not registered for the route' : '404-notFound: no route matches request');
    }
    return undefined;
  }
}

/** Puts an IndexedRouter in place of the one `api.init()` made, for routing and for the validators alike. */
export function useIndexedRouter(api: OpenAPIBackend): void {
  const router = new IndexedRouter({
    definition: api.definition,
    apiRoot: api.apiRoot,
    ignoreTrailingSlashes: api.ignoreTrailingSlashes,
  });
  api.router = router;
  if (api.validator) api.validator.router = router;
}

/** The spec's index of paths: the IndexedRouter's, or one built from whatever router the backend has. */
export function pathIndexOf(api: OpenAPIBackend): PathIndex<Operation> {
  return api.router instanceof IndexedRouter ? api.router.paths : new PathIndex(api.router.getOperations());
}

/**
 * The spec's paths end with "/" (PostHog's do). A request may leave it out, or add one to a path that has none:
 * answer it as the spec's spelling of the same path when only that one exists.
 */
export function pathCanonicalizer(api: OpenAPIBackend): (path: string) => string {
  const paths = pathIndexOf(api);
  return (path) => {
    if (paths.hasPath(path)) return path;
    const other = otherSpelling(path);
    return paths.hasPath(other) ? other : path;
  };
}
