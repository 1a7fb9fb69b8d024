/**
 * The workflow bundle of our own worker (`a2a-temporal worker`, the demo, the image's pre-built
 * bundle): `delegate` and the `release` coordinator. Every function exported here becomes a
 * workflow type of the worker.
 */
export { delegate } from '../delegate/delegate.js';
export { release } from '../release/release.js';
