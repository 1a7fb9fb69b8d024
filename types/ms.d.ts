// `ms` 3 (the duration parser the Temporal SDK uses) ships its types, but its package.json
// `exports` map has no `types` condition, so NodeNext resolution cannot find them.
declare module 'ms' {
  import type { StringValue } from '@temporalio/common';
  export type { StringValue };
  export default function ms(value: StringValue): number;
}
