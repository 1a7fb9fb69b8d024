/**
 * Whether this workflow run is traced, as the tracing interceptors decided when it started (see
 * tracing-interceptors.ts). Kept in the run's own globals: our workflow modules are shared by
 * every workflow of a worker thread (SHARED_WORKFLOW_MODULES in worker/workflow-modules.ts), so
 * their module state would be too, while the sandbox gives each workflow its own global scope.
 */
const TRACED = Symbol.for('a2a-temporal.traced-run');

type WithFlag = { [TRACED]?: true };

/** Called by the tracing interceptors when a run starts with a trace context. */
export function markTracedRun(): void {
  (globalThis as WithFlag)[TRACED] = true;
}

export function isTracedRun(): boolean {
  return (globalThis as WithFlag)[TRACED] === true;
}
