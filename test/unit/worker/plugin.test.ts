import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities/index.js';
import { a2aTemporalPlugin, ActivityNameClashError, withOurActivities } from '../../../worker/plugin.js';
import {
  DELEGATE_WORKFLOWS_PATH,
  SHARED_WORKFLOW_MODULES,
  SHOWCASE_WORKFLOWS_PATH,
} from '../../../worker/workflow-modules.js';

describe("the plugin's activities", () => {
  const ours = createActivities();

  it("are registered under a2a.-prefixed names, beside the worker's own", () => {
    const mine = { sendMessage: () => 'the worker’s own' };
    const merged = withOurActivities(mine, ours) as Record<string, unknown>;
    expect(merged['a2a.sendMessage']).toBe(ours['a2a.sendMessage']);
    expect(merged.sendMessage).toBe(mine.sendMessage);
  });

  it('are registered under their prefixed names only: nothing else lands in the worker', () => {
    const merged = withOurActivities({}, ours) as Record<string, unknown>;
    expect(Object.keys(merged).sort()).toEqual(Object.keys(ours).sort());
    expect(Object.keys(merged).every((n) => n.startsWith('a2a.'))).toBe(true);
  });

  it('never replace an activity of the worker under a prefixed name: a clash is an error', () => {
    expect(() => withOurActivities({ 'a2a.getTask': () => undefined }, ours)).toThrow(ActivityNameClashError);
    expect(() => withOurActivities({ 'a2a.getTask': () => undefined }, ours)).toThrow(
      /already registers a2a\.getTask, which a2a-temporal's plugin registers too/,
    );
  });
});

describe("the plugin's workflows", () => {
  const plugin = a2aTemporalPlugin({ telemetry: false });

  it('are `delegate` alone when the worker has no workflows of its own (never the release coordinator)', async () => {
    const options = plugin.configureWorker({ taskQueue: 'q' });
    expect(options.workflowsPath).toBe(DELEGATE_WORKFLOWS_PATH);
    expect(statSync(DELEGATE_WORKFLOWS_PATH).isFile()).toBe(true); // the bundler stats it: no extension-less path
    expect(Object.keys(await import(DELEGATE_WORKFLOWS_PATH))).toEqual(['delegate']);
  });

  it('are bundled with the tracing interceptors when they are the default', () => {
    const options = plugin.configureWorker({ taskQueue: 'q' });
    expect(options.interceptors?.workflowModules).toEqual([expect.stringMatching(/tracing-interceptors$/)]);
  });

  it("leave a worker's own workflows alone", () => {
    expect(plugin.configureWorker({ taskQueue: 'q', workflowsPath: '/mine' }).workflowsPath).toBe('/mine');
    const bundled = plugin.configureWorker({ taskQueue: 'q', workflowBundle: { code: '' } });
    expect(bundled.workflowsPath).toBeUndefined();
  });

  it("share our modules between workflows, beside a worker's own preloaded ones", () => {
    expect(statSync(SHARED_WORKFLOW_MODULES[0]!).isFile()).toBe(true);
    expect(plugin.configureWorker({ taskQueue: 'q' }).bundlerOptions?.preloadModules).toEqual(SHARED_WORKFLOW_MODULES);
    const theirs = plugin.configureWorker({
      taskQueue: 'q',
      workflowsPath: '/mine',
      bundlerOptions: { preloadModules: ['/mine/lib'], ignoreModules: ['fs'] },
    });
    expect(theirs.bundlerOptions).toEqual({
      preloadModules: ['/mine/lib', ...SHARED_WORKFLOW_MODULES],
      ignoreModules: ['fs'],
    });
  });

  it("are `delegate` and `release` in our own worker's bundle", async () => {
    expect(statSync(SHOWCASE_WORKFLOWS_PATH).isFile()).toBe(true);
    expect(Object.keys(await import(SHOWCASE_WORKFLOWS_PATH)).sort()).toEqual(['delegate', 'release']);
  });
});
