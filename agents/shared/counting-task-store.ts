import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

/** A task store that reports the first save of every task id (the SDK saves a new task on its first event). */
export class CountingTaskStore implements TaskStore {
  constructor(
    private readonly inner: TaskStore,
    private readonly onCreated: (task: Task) => void,
  ) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const existing = await this.inner.load(task.id, context);
    await this.inner.save(task, context);
    if (!existing) this.onCreated(task);
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.inner.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.inner.list(params, context);
  }
}
