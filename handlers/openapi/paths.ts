/**
 * The spec's path templates, compiled once and matched the same way by every router: openapi-backend's
 * (router.ts), the trailing-slash canonicalizer (router.ts) and the capture lane (handlers/server/lane.ts).
 * A template's `{parameters}` match one whole segment each; everything else matches only itself.
 */
import { escapeRegExp } from '../../db/core/text.js';

export interface CompiledPath {
  template: string;
  /** Matches a request path exactly, capturing each parameter's raw segment, in the order of `names`. */
  pattern: RegExp;
  names: string[];
  /** The template's length without its parameters: the stock router prefers the longer. */
  specificity: number;
}

export function compilePath(template: string): CompiledPath {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (!part.startsWith('{')) return escapeRegExp(part);
      names.push(part.slice(1, -1));
      return '([^/]+)';
    })
    .join('');
  return { template, pattern: new RegExp(`^${source}$`), names, specificity: template.replace(/\{.*?\}/g, '').length };
}

/** The other spelling of a path: without its trailing slash, or with one. */
export function otherSpelling(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
}

/** Each operation with its compiled template, most specific first (ties in document order). */
export class PathIndex<Op extends { path: string }> {
  readonly entries: ReadonlyArray<{ operation: Op; path: CompiledPath }>;
  /** Each template once (several operations share one). */
  private readonly templates: readonly CompiledPath[];

  constructor(operations: readonly Op[], compiled: Map<string, CompiledPath> = new Map()) {
    const compiledOf = (template: string) => {
      let path = compiled.get(template);
      if (!path) compiled.set(template, (path = compilePath(template)));
      return path;
    };
    // A stable sort keeps document order among equally specific templates.
    this.entries = operations
      .map((operation) => ({ operation, path: compiledOf(operation.path) }))
      .sort((a, b) => b.path.specificity - a.path.specificity);
    this.templates = [...new Set(this.entries.map((entry) => entry.path))];
  }

  /** The same index for some of its operations, their templates not compiled again. */
  subset(keep: (operation: Op) => boolean): PathIndex<Op> {
    const compiled = new Map(this.entries.map(({ path }) => [path.template, path]));
    return new PathIndex(
      this.entries.filter(({ operation }) => keep(operation)).map(({ operation }) => operation),
      compiled,
    );
  }

  /** Whether any template matches the path as it is spelled. */
  hasPath(path: string): boolean {
    return this.templates.some((template) => template.pattern.test(path));
  }
}
