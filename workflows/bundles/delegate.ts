/**
 * The plugin's default workflow bundle (its `workflowsPath` when the worker has no workflows of
 * its own): `delegate` only. Every function exported here becomes a workflow type of the worker.
 */
export { delegate } from '../delegate/delegate.js';
