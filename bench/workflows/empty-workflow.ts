/**
 * `empty_workflow`: a workflow that returns at once (one workflow task, no activity), so the
 * throughput table shows what the server and the worker do per workflow at all, the ceiling
 * every durable design sits under.
 */
export async function emptyWorkflow(): Promise<void> {}
