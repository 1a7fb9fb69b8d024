/**
 * Validation whose cost does not grow with the number of invalid values. zod reports every
 * problem it meets: a list of a million wrong values costs a million issues (measured: 20 s of
 * blocked event loop and 2.6 GB for an 8 MB body). Schemas built with {@link guarded} count
 * their failures against the running {@link boundedSafeParse}, which stops the validation at
 * the {@link MAX_INVALID_VALUES}th. Internal to a2a/ (not exported by the schemas index).
 */
import type { z } from 'zod';

/** A validation stops at this many invalid values (zod would otherwise build an issue for each). */
export const MAX_INVALID_VALUES = 100;

/** Thrown out of zod when a value has more than {@link MAX_INVALID_VALUES} invalid values. */
export class TooManyInvalidValues extends Error {
  constructor(
    /** The first invalid value met (the innermost one). */
    readonly first: unknown,
  ) {
    super(`more than ${MAX_INVALID_VALUES} invalid values`);
  }
}

let failures: { count: number; first?: unknown } | undefined;

/** `schema`, counting its failures against the running {@link boundedSafeParse} (none outside one). */
export function guarded<T extends z.ZodType>(schema: T): T {
  return schema.refine(() => true, {
    when: (payload) => {
      if (failures && payload.issues.length > 0) {
        if (failures.count === 0) failures.first = payload.value;
        if (++failures.count > MAX_INVALID_VALUES) throw new TooManyInvalidValues(failures.first);
      }
      return false;
    },
  }) as unknown as T;
}

/** `schema.safeParse`, stopped with {@link TooManyInvalidValues} past {@link MAX_INVALID_VALUES} invalid values. */
export function boundedSafeParse<S extends z.ZodType>(
  schema: S,
  value: unknown,
  params?: { reportInput?: boolean },
): z.ZodSafeParseResult<z.output<S>> {
  const outer = failures;
  failures = { count: 0 };
  try {
    return schema.safeParse(value, params) as z.ZodSafeParseResult<z.output<S>>;
  } finally {
    failures = outer;
  }
}
