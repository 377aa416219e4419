/**
 * What a parsed JSON request body may not hold, because it could not be stored or written back faithfully:
 * - containers nested deeper than MAX_JSON_DEPTH. JSON.parse accepts thousands of levels, but serialising such
 *   a value again (JSON.stringify, to store it) runs out of stack: a server error for one careless client.
 *   PostHog's capture parses with serde_json, which refuses a 128th level (its recursion limit), with a 400;
 * - numbers beyond the double range (`1e400`): JSON.parse makes them Infinity, which JSON.stringify writes as
 *   `null`, so a distinct id of `1e400` would become "null" and join every such user. serde_json refuses them.
 */
export const MAX_JSON_DEPTH = 127;

/** What a walk of a parsed value found. */
export interface JsonScan {
  /** The first reason the value may not be stored, or null. */
  problem: string | null;
  /**
   * Whether it holds a number beyond ±2^53: where the text wrote it as an integer, JSON.parse has rounded it
   * (db/core/exact-json.ts reads such a text again).
   */
  largeNumbers: boolean;
}

/**
 * Walks a value as JSON.parse made it. Iterative (a recursive walk would fail on the very values it looks for)
 * and allocation-light, as it runs on every capture request.
 */
export function scanJsonValue(root: unknown, maxDepth = MAX_JSON_DEPTH): JsonScan {
  let largeNumbers = false;
  const number = (value: number): string | null => {
    if (!Number.isFinite(value)) return NUMBER_OUT_OF_RANGE;
    if (!Number.isSafeInteger(value) && Number.isInteger(value)) largeNumbers = true;
    return null;
  };
  if (typeof root === 'number') return { problem: number(root), largeNumbers };
  if (typeof root !== 'object' || root === null) return { problem: null, largeNumbers };
  const containers: object[] = [root];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return { problem: `the JSON is nested more than ${maxDepth} levels deep`, largeNumbers };
    const values: unknown[] = Array.isArray(container) ? container : Object.values(container);
    for (const value of values) {
      if (typeof value === 'number') {
        const problem = number(value);
        if (problem) return { problem, largeNumbers };
      } else if (typeof value === 'object' && value !== null) {
        containers.push(value);
        depths.push(depth + 1);
      }
    }
  }
  return { problem: null, largeNumbers };
}

/** The first reason the value may not be stored, or null (scanJsonValue). */
export function jsonValueProblem(root: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  return scanJsonValue(root, maxDepth).problem;
}

const NUMBER_OUT_OF_RANGE = 'a number is out of range';
