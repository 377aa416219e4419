/**
 * Person and group properties are objects keyed by whatever names clients send, `__proto__`, `constructor` and
 * `toString` included. Assigning `__proto__` would change the object's prototype instead of adding a property
 * (and the value would never be stored); `in` would find `constructor` on every object. Reads use
 * Object.hasOwn, writes this.
 */
export function setProperty(properties: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(properties, name, { value, writable: true, enumerable: true, configurable: true });
  else properties[name] = value;
}
