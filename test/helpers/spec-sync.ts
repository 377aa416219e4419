/**
 * spec/openapi.yaml read synchronously, with its internal `$ref`s resolved, for test files that generate their
 * cases from the spec at load time (mocha collects tests synchronously).
 */
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';

export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  security?: Record<string, string[]>[];
  deprecated?: boolean;
  parameters?: { in: string; name: string; required?: boolean; example?: unknown; schema?: { example?: unknown } }[];
  requestBody?: { content?: Record<string, { examples?: Record<string, { value?: unknown }>; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> }>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function resolve(node: Json, root: Json, seen: Set<string> = new Set()): Json {
  if (Array.isArray(node)) return node.map((item) => resolve(item, root, seen));
  if (node === null || typeof node !== 'object') return node;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (seen.has(ref)) return {};
    let target: Json = root;
    for (const segment of ref.slice(2).split('/')) {
      target = (target as Record<string, Json>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')]!;
    }
    return resolve(target, root, new Set([...seen, ref]));
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolve(value, root, seen)]));
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The spec's operations of these methods (lower case; OPTIONS, the capture pre-flights, only when asked). */
export function specOperations(methods: readonly string[] = METHODS): SpecOperation[] {
  const root = load(readFileSync(SPEC_PATH, 'utf8')) as Json;
  const paths = resolve((root as { paths: Json }).paths, root) as Record<string, Record<string, Json>>;
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const shared = (item.parameters ?? []) as SpecOperation['parameters'];
    for (const method of methods) {
      const operation = item[method] as Omit<SpecOperation, 'method' | 'path'> | undefined;
      if (!operation) continue;
      operations.push({ ...operation, method, path, parameters: [...(shared ?? []), ...(operation.parameters ?? [])] });
    }
  }
  return operations;
}
