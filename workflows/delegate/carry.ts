/**
 * What a run carries across continue-as-new, checked by the compiler. Each part of a run that
 * holds something the next run needs (the state, the tracker, the deadline, the publisher)
 * returns a `Carry` of its fields, and the run joins them into a `Carry` of all of ResumeState:
 * every field is a key even when optional (its value may be undefined), so a field added to
 * ResumeState and written by nobody, or one a part forgets, is a compile error instead of a
 * value the next run silently goes without.
 */
import type { ResumeState } from '../../contract/delegation-types.js';

export type Carry<K extends keyof ResumeState = keyof ResumeState> = {
  [P in K]-?: undefined extends ResumeState[P] ? ResumeState[P] | undefined : ResumeState[P];
};
