/**
 * The HTTP client of the tests: never throws on a status, returns the parsed body, and fails the test when the
 * response breaks spec/openapi.yaml (see contract.ts).
 */
import { contractViolations } from './contract.js';

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

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultKey: string | null = null,
  ) {}

  withKey(key: string | null): HttpClient {
    return new HttpClient(this.baseUrl, key);
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
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    let parsed: unknown = text;
    if (contentType?.includes('json') && text.length > 0) parsed = JSON.parse(text);
    const violations = await contractViolations({ method, path, status: response.status, contentType, body: parsed, text });
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
