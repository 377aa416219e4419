/**
 * A table entry by a word from the request. A plain object's inherited names (`constructor`, `__proto__`,
 * `toString`) would otherwise be found in every table, as functions, and compiled as a field or a function.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string | number | undefined): T | undefined {
  if (key === undefined) return undefined;
  const name = String(key);
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
