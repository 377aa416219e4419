/**
 * What a parsed JSON request body may not hold, because it could not be stored or written back faithfully:
 * - containers nested deeper than MAX_JSON_DEPTH. JSON.parse accepts thousands of levels, but serialising such
 *   a value again (JSON.stringify, to store it) runs out of stack: a server error for one careless client.
 *   PostHog's capture parses with serde_json, which refuses a 128th level (its recursion limit), with a 400;
 * - numbers beyond the double range (`1e400`): JSON.parse makes them Infinity, which JSON.stringify writes as
 *   `null`, so a distinct id of `1e400` would become "null" and join every such user. serde_json refuses them.
 */

export const MAX_JSON_DEPTH = 127;

/**
 * The first reason the value may not be stored, or null. Iterative (a recursive walk would fail on the very
 * values it looks for) and allocation-light, as it runs on every capture request.
 */
export function jsonValueProblem(root: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  if (typeof root === 'number') return Number.isFinite(root) ? null : NUMBER_OUT_OF_RANGE;
  if (typeof root !== 'object' || root === null) return null;
  const containers: object[] = [root];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return `the JSON is nested more than ${maxDepth} levels deep`;
    const values: unknown[] = Array.isArray(container) ? container : Object.values(container);
    for (const value of values) {
      if (typeof value === 'number') {
        if (!Number.isFinite(value)) return NUMBER_OUT_OF_RANGE;
      } else if (typeof value === 'object' && value !== null) {
        containers.push(value);
        depths.push(depth + 1);
      }
    }
  }
  return null;
}

const NUMBER_OUT_OF_RANGE = 'a number is out of range';
