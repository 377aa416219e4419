/**
 * The HTTP client of the tests: never throws on a status, returns the parsed body, and fails the test when the
 * response breaks spec/openapi.yaml (see contract.ts).
 */
import { jsonValueProblem } from '../../db/core/json-limits.js';
import { wellEncodedPath } from '../../handlers/openapi/router.js';
import { SECURITY_SCHEME } from '../../handlers/server/security.js';
import { contractViolations, loadSpec, operationFor } from './contract.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as is, instead of JSON-encoding `body`. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * Whether `prism proxy` would forward this request to the server. It answers some requests itself, in its own
 * format, instead: no credentials for a secured operation, a method or path spelling the spec does not have
 * (such as a path without its trailing slash, or with a malformed %-escape), or a JSON body it cannot parse,
 * nest as deep, or forward as sent (a JSON string). Those go straight to the server; their responses are still
 * checked against the spec here.
 */
async function prismForwards(method: string, path: string, key: string | null, options: RequestOptions): Promise<boolean> {
  const { canonicalPath } = await loadSpec();
  const bare = path.split('?')[0]!;
  if (!wellEncodedPath(bare)) return false;
  if (canonicalPath(bare) !== bare) return false;
  const operation = await operationFor(method, bare);
  if (!operation) return false;
  if (!key && operation.security?.some((requirement) => SECURITY_SCHEME in requirement)) return false;
  if (typeof options.rawBody === 'string' && options.headers?.['content-type']?.includes('json')) {
    try {
      // Nested deeper than the server accepts, it would overflow the stack of Prism's validator; a JSON string it
      // forwards as the text it holds.
      const parsed: unknown = JSON.parse(options.rawBody);
      if (typeof parsed === 'string' || jsonValueProblem(parsed)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

export class HttpClient {
  /**
   * @param baseUrl where requests go
   * @param directUrl the server itself, when baseUrl is a Prism proxy in front of it
   */
  constructor(
    readonly baseUrl: string,
    private readonly defaultKey: string | null = null,
    private readonly directUrl: string = baseUrl,
  ) {}

  withKey(key: string | null): HttpClient {
    return new HttpClient(this.baseUrl, key, this.directUrl);
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? this.defaultKey : options.key;
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (body === undefined && options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const viaProxy = this.baseUrl !== this.directUrl && (await prismForwards(method, path, key, options));
    const response = await fetch(new URL(path, viaProxy ? this.baseUrl : this.directUrl), { method, headers, body });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    let parsed: unknown = text;
    if (contentType?.includes('json') && text.length > 0) parsed = JSON.parse(text);
    const allow = response.headers.get('allow');
    const violations = await contractViolations({ method, path, status: response.status, contentType, body: parsed, text, allow });
    if (violations.length > 0) throw new Error(`Response breaks the contract:\n${violations.join('\n')}`);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
