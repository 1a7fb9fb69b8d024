/**
 * The workflow bundle's entry (`workflowsPath`) and the library's sandbox-safe surface.
 * A workflow that is not re-exported here fails at run time with "no such function is
 * exported by the workflow bundle". Register a2a-temporal in your own worker by re-exporting
 * from your workflows file: `export * from 'a2a-temporal/workflows';`.
 */
export { delegate } from './delegate.js';
export { delegateTo, startDelegation, type DelegationChildOptions } from './delegate-child.js';
export { release, SORT_REQUEST } from './release.js';
export * from '../contract/index.js';
