/**
 * One Temporal test server and one worker per test file, following Temporal's
 * `workflows-mocks.test.ts`: the real workflow code (the bundle of test/fixtures/workflows.ts)
 * runs against activities that play a script (scripted-agent.ts). Each test sets its script and
 * starts its workflow; the worker answers every activity from the script of the test running.
 *
 * `time-skipping`: Temporal's test server; timers fire as soon as the test waits for a result, so
 * an hour's input deadline takes no time. `{ suggestContinueAsNewAfter: n }`: the dev server,
 * suggesting continue-as-new once a run's history has n events (the test server never does).
 */
import { randomUUID } from 'node:crypto';
import type { Client, WorkflowHandleWithFirstExecutionRunId as WorkflowHandle } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Runtime, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, inject } from 'vitest';
import { delegationStatusQuery, type DelegationStatus, type PendingQuestion } from '../../contract/index.js';
import { searchAttributeKeys } from '../../contract/search-attributes.js';
import { registerSearchAttributes } from '../../platform/search-attributes-setup.js';
import { waitFor } from '../helpers/wait.js';
import { outcome, ScriptedAgent, scriptedActivities, turn, type Step } from './scripted-agent.js';

let runtimeInstalled = false;

export type TestServerKind = 'time-skipping' | { suggestContinueAsNewAfter: number };

export interface ScriptedWorker {
  client(): Client;
  /** Starts `workflowType` with `input`; the workflow's activities play `steps`. */
  start<T>(workflowType: string, input: T, steps: Step[]): Promise<{ handle: WorkflowHandle; agent: ScriptedAgent }>;
  /**
   * Starts a coordinator whose child workflows (ids `<its id>/<label>`) each play the steps
   * under their label; an activity of any other workflow fails: nothing was scripted for it.
   */
  startCoordinator<T>(
    workflowType: string,
    input: T,
    scripts: Record<string, Step[]>,
  ): Promise<{ handle: WorkflowHandle; agents: Record<string, ScriptedAgent> }>;
  /** Lets `ms` of the test server's time pass (skipped at once on the time-skipping server). */
  sleep(ms: number): Promise<void>;
}

/** Starts of a test server tried before giving up. */
const SERVER_STARTS = 3;

/**
 * Starts a test server, again when it did not start in time. The SDK gives the server 5 s to
 * listen (not configurable); the Java test server's JVM can need more on a loaded machine, and
 * such a start fails with "did not start within 5s" although nothing is wrong.
 */
async function startingAgainWhenSlow(start: () => Promise<TestWorkflowEnvironment>): Promise<TestWorkflowEnvironment> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (err) {
      if (attempt >= SERVER_STARTS || !/did not start within/i.test(String(err))) throw err;
      console.warn(`The test server did not start in time (start ${attempt} of ${SERVER_STARTS}); starting it again.`);
    }
  }
}

/** A test server and a worker for this file (call at module level); both stop after the file. */
export function useScriptedWorker(kind: TestServerKind): ScriptedWorker {
  const { testServerPath, cliPath, workflowBundlePath } = inject('workflowTests');
  const taskQueue = `scripted-${randomUUID()}`;
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  let scripts: Record<string, ScriptedAgent> = {};
  /** The script of a workflow: its own, or its label's under a coordinator. */
  const scriptOf = (workflowId: string): ScriptedAgent =>
    scripts[workflowId] ?? scripts[workflowId.slice(workflowId.lastIndexOf('/') + 1)] ?? new ScriptedAgent([]);

  beforeAll(async () => {
    if (!runtimeInstalled) {
      // Keep the Rust core quiet: its warnings are not test output.
      Runtime.install({ logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error } });
      runtimeInstalled = true;
    }
    if (kind === 'time-skipping') {
      env = await startingAgainWhenSlow(() =>
        TestWorkflowEnvironment.createTimeSkipping({
          server: { executable: { type: 'existing-path', path: testServerPath } },
        }),
      );
      await registerSearchAttributes(env.connection, env.namespace ?? 'default');
    } else {
      env = await startingAgainWhenSlow(() =>
        TestWorkflowEnvironment.createLocal({
          server: {
            executable: { type: 'existing-path', path: cliPath },
            searchAttributes: [...searchAttributeKeys],
            extraArgs: [
              '--dynamic-config-value',
              `limit.historyCount.suggestContinueAsNew=${kind.suggestContinueAsNewAfter}`,
            ],
            log: { format: 'pretty', level: 'error' },
          },
        }),
      );
    }
    worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: { codePath: workflowBundlePath },
      activities: scriptedActivities(scriptOf),
    });
    running = worker.run();
    // A worker's first workflow pays for loading the bundle into its sandbox (and the server for
    // its first calls): one short delegation here, so that each test's time is its own.
    const warmUp = `warm-up-${randomUUID()}`;
    scripts = {
      [warmUp]: new ScriptedAgent([{ call: 'a2a.pollMessage', answer: turn(outcome('completed')) }]),
    };
    await env.client.workflow.execute('delegate', {
      taskQueue,
      workflowId: warmUp,
      args: [{ agent: 'compat', text: 'warm up', mode: 'poll' }],
    });
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  return {
    client: () => env.client,
    async start(workflowType, input, steps) {
      const workflowId = `${workflowType}-${randomUUID()}`;
      const agent = new ScriptedAgent(steps);
      scripts = { [workflowId]: agent };
      const handle = await env.client.workflow.start(workflowType, { taskQueue, workflowId, args: [input] });
      return { handle, agent };
    },
    async startCoordinator(workflowType, input, byLabel) {
      const workflowId = `${workflowType}-${randomUUID()}`;
      const agents = Object.fromEntries(
        Object.entries(byLabel).map(([label, steps]) => [label, new ScriptedAgent(steps)]),
      );
      scripts = agents;
      const handle = await env.client.workflow.start(workflowType, { taskQueue, workflowId, args: [input] });
      return { handle, agents };
    },
    sleep: (ms) => env.sleep(ms),
  };
}

export function statusOf(handle: Pick<WorkflowHandle, 'query'>): Promise<DelegationStatus> {
  return handle.query(delegationStatusQuery);
}

/** Waits until the delegation asks question `id` and returns it. */
export function questionOf(handle: Pick<WorkflowHandle, 'query'>, id: string): Promise<PendingQuestion> {
  return waitFor(async () => {
    const { question } = await statusOf(handle);
    return question?.id === id ? question : undefined;
  });
}
