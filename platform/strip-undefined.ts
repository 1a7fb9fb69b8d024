/** A copy of `value` without the keys whose value is undefined (so spreads do not erase defaults). */
export function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
